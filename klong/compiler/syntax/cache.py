"""A cache of what the compiler makes from text (parses, compiled Python code), shared by
the interpreters of the process, bounded by the size of the text it keeps and by a number
of entries: what is made from text grows with the text, so a bound on entries alone lets a
thousand long programs keep hundreds of megabytes alive after their interpreters are gone.
The least recently used entries go first."""
import collections
import threading


class TextCache:
    """Values made from text, kept while their texts hold at most `max_chars` characters in
    all and they number at most `max_entries`. A text longer than `max_chars` is not kept."""

    def __init__(self, max_chars, max_entries):
        self.max_chars = max_chars
        self.max_entries = max_entries
        self.chars = 0                  # the characters of the texts kept now
        self._entries = collections.OrderedDict()      # key -> (value, chars)
        self._lock = threading.Lock()   # interpreters in several threads share it

    def get(self, key):
        """The value kept for `key`, or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key, value, chars):
        """Keep `value` for `key`, made from `chars` characters of text."""
        if chars > self.max_chars:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.chars -= old[1]
            self._entries[key] = (value, chars)
            self.chars += chars
            while self.chars > self.max_chars or len(self._entries) > self.max_entries:
                _, (_, gone) = self._entries.popitem(last=False)
                self.chars -= gone

    def __len__(self):
        return len(self._entries)

    def clear(self):
        with self._lock:
            self._entries.clear()
            self.chars = 0
