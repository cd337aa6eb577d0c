"""Short help texts for the REPL's ]h and ]a commands: every verb (both meanings), adverb,
extension operator, system function and system variable, keyed by how it is written."""
import re

# Each entry: the usage lines first (one per meaning), then a line or two of explanation.
VERBS = {
    "@": "@a   Atom: 1 when a is an atom (anything but a non-empty list or string), else 0.\n"
         "a@b  At: element(s) of list or string a at index or index list b;\n"
         "     when a is a function, apply it to the arguments in list b (f@[x y] is f(x;y)).",
    ",": ",a   List: a one-element list holding a (a character becomes a one-character string).\n"
         "a,b  Join: a followed by b; atoms count as one-element lists;\n"
         "     d,[k v] (or [k v],d) stores the entry k->v in dictionary d.",
    "!": "!a   Enumerate: the integers 0 up to a-1 (!0 is []).\n"
         "a!b  Remainder: what is left of a after truncating division by b (sign of a); atomic.",
    "#": "#a   Size: length of a list or string, entries of a dictionary, magnitude of a number,\n"
         "     code of a character.\n"
         "a#b  Take: the first a elements of b (the last |a| when a<0), repeating b as needed.",
    "<": "<a   Grade-Up: the indices that put list or string a in ascending order (a@<a sorts).\n"
         "a<b  Less: 1 when a is smaller than b (numbers, characters, strings, symbols); atomic.",
    ">": ">a   Grade-Down: the indices that put a in descending order.\n"
         "a>b  More: 1 when a is greater than b; atomic.",
    "=": "=a   Group: for each distinct element of a, the list of positions where it occurs,\n"
         "     groups in order of first appearance.\n"
         "a=b  Equal: 1 when a and b are equal numbers, characters, strings or symbols; atomic.",
    "*": "*a   First: the first element of a list or string; an atom is returned as it is.\n"
         "a*b  Times: product; atomic.",
    "+": "+a   Transpose: rows become columns in a matrix (a list of equal-length lists).\n"
         "a+b  Plus: sum; atomic.",
    "-": "-a   Negate: the number with its sign flipped; atomic.\n"
         "a-b  Minus: difference; atomic.",
    "_": "_a   Floor: largest whole number not above a, as an integer; atomic.\n"
         "a_b  Drop: b without its first a elements (the last |a| when a<0);\n"
         "     with a dictionary b, removes the entry with key a.",
    "~": "~a   Not: 1 for a false value (0, 0.0, [], \"\"), otherwise 0.\n"
         "a~b  Match: 1 when a and b are the same value, compared as wholes (reals with a small\n"
         "     tolerance); never an error.",
    "$": "$a   Format: the text of a as a string ($123 is \"123\"); atomic.\n"
         "a$b  Format2: $b padded to width a (a>0 pads on the right, a<0 on the left);\n"
         "     a real a such as 5.2 lays out decimals.",
    "?": "?a   Range: the distinct elements of a, in order of first appearance.\n"
         "a?b  Find: the positions where b occurs in list or string a; for a dictionary a,\n"
         "     the value stored under key b (:undefined when missing).",
    "%": "%a   Reciprocal: 1 divided by a, a real; atomic.\n"
         "a%b  Divide: a divided by b, always a real; division by zero gives :undefined.",
    "|": "|a   Reverse: the elements of a list or string in the opposite order.\n"
         "a|b  Max / Or: the larger of a and b (logical or on 0 and 1); atomic.",
    "^": "^a   Shape: the dimensions of a (0 for an atom), e.g. ^[[1 2 3] [4 5 6]] is [2 3].\n"
         "a^b  Power: a raised to the power b; atomic.",
    "&": "&a   Expand / Where: each index i repeated a@i times; on a 0/1 list, where the 1s are.\n"
         "a&b  Min / And: the smaller of a and b (logical and on 0 and 1); atomic.",
    ":#": ":#a  Char: the character with code a; atomic.\n"
          "a:#b Split: b cut into pieces of the lengths in a, cycling through a.",
    ":_": ":_a  Undefined: 1 when a is the undefined value, else 0.\n"
          "a:_b Cut: b cut into pieces just before each position in a.",
    ":=": "a:=b Amend: a copy of list or string a with value v put at each index, b being\n"
          "     [v i1 i2 ...] (usually written a:=v,[i j]).",
    ":-": "a:-b Amend-in-Depth: a copy of nested list a with the single element at the path\n"
          "     i1 i2 ... replaced by v, b being [v i1 i2 ...].",
    "::": "a::b Define: store the value of b in the variable a (a local one when declared)\n"
          "     and return it.",
    ":$": "a:$b Form: read string b as a value of the same type as a (0, 0.0, 0c0, :s);\n"
          "     :undefined when it is not such a value; atomic.",
    ":@": "a:@b Index-in-Depth: index nested list a with each of b's indices in turn:\n"
          "     a:@[i j] is (a@i)@j. With a function a it applies, like @.",
    ":%": "a:%b Integer-Divide: quotient of integers, truncated toward zero; atomic.",
    ":+": "a:+b Rotate: list or string b rotated a places to the right (left when a<0).",
    ":^": "a:^b Reshape: an array of shape a filled with the elements of b, reused from the\n"
          "     start when they run out.",
}

ADVERBS = {
    "'": "f'a   Each: f applied to every element of a (or to each [key value] of a dictionary).\n"
         "a f'b Each-2: f applied to corresponding elements of a and b.",
    "/": "f/a   Over: fold the dyad f from the left: f(f(a1;a2);a3)...  (+/ sums).\n"
         "a f/b Over-Neutral: the same fold, starting from the value a.",
    "\\": "f\\a   Scan-Over: every intermediate value of f/a, as a list.\n"
          "a f\\b Scan-Over-Neutral: every intermediate value of a f/b, starting with a.",
    ":'": "f:'a  Each-Pair: the dyad f applied to each neighbouring pair: f(a1;a2) f(a2;a3) ...",
    ":\\": "a f:\\b Each-Left: f(a;b1) f(a;b2) ... for every element of b.",
    ":/": "a f:/b Each-Right: f(b1;a) f(b2;a) ... for every element of b.",
    ":~": "f:~a  Converge: apply the monad f again and again until the value stops changing.\n"
          "p f:~a While: apply f as long as the predicate p holds for the value.",
    ":*": "n f:*a Iterate: apply the monad f n times to a.",
    "\\~": "f\\~a  Scan-Converging: every value that Converge passes through, up to the fixpoint.\n"
           "p f\\~a Scan-While: every value for which predicate p held, in order.",
    "\\*": "n f\\*a Scan-Iterating: a and the results of applying f 1 to n times.",
}

OPERATORS = {
    ":>": "f:>p   Autograd: the gradient of the scalar function f at point p, exact on the\n"
          "       torch backend, numeric on numpy; f:>[w b] differentiates a nilad by variables.",
    "\u2207": "\u2207f     Gradient function: a monad that returns the gradient of f at its argument.\n"
              "p\u2207f    Numeric gradient of f at p by central differences, on any backend.\n"
              "       (type \\nabla and Tab at the prompt)",
    "\u2202": "p\u2202f    Jacobian of f at p: d f(p)_i / d p_j; [w b]\u2202f gives one per variable.\n"
              "       (type \\partial and Tab at the prompt)",
    "\u02d9": "\u02d9a     Track: returns a unchanged; marks values that will be differentiated.",
    ":[": ":[p;c;a]  Conditional: c when p is true, else a; :[p1;c1:|p2;c2;a] chains\n"
          "          else-ifs. False values are 0, 0.0, [] and \"\".",
    ":|": ":|        Else-if separator inside a conditional :[...].",
    ":\"": ":\"...\"    Comment; a doubled quote stands for a quote inside it.",
}

SYSTEM_FUNCTIONS = {
    ".ac": ".ac(x)  Append-Channel: an output channel that adds to the end of file x.",
    ".cc": ".cc(x)  Close-Channel: close channel x; gives [].",
    ".comment": ".comment(x)  Skip the following source lines up to and including the first one\n"
                "             that starts with the marker x.",
    ".d": ".d(x)   Display: write x in display form (text without quotes) to the To Channel.",
    ".df": ".df(x)  Delete-File: remove the file named x; gives x.",
    ".E": ".E(x)   Evaluate: run the Klong program in string x at the global level, give its value.",
    ".fc": ".fc(x)  From-Channel: read from input channel x from now on (0 selects .cin);\n"
           "        gives the previous one.",
    ".fl": ".fl()   Flush: push out buffered output of the To Channel.",
    ".ic": ".ic(x)  Input-Channel: a channel that reads file x.",
    ".l": ".l(x)   Load: run the Klong file x (x.kg also tried; searched on KLONGPATH unless x\n"
          "        starts with / or .); gives the value of its last expression.",
    ".mi": ".mi(x)  More-Input: 1 until a read past the end of the From Channel, then 0.",
    ".module": ".module(x)  Open module x (a symbol) or close the open one (0).",
    ".oc": ".oc(x)  Output-Channel: a channel that writes file x, created or emptied.",
    ".p": ".p(x)   Print: like .d, then a newline; gives x.",
    ".pc": ".pc()   Process-Clock: processor time used so far, in seconds.",
    ".r": ".r()    Read: the next data value from the From Channel (:eof at the end).",
    ".rl": ".rl()   Read-Line: the next line of the From Channel as a string.",
    ".rls": ".rls()  Read-Lines (extension): all remaining lines of the From Channel, a list\n"
            "        of strings.",
    ".rn": ".rn()   Random-Number: a real r with 0<=r<1, from the interpreter's own generator\n"
           "        (seeded by kgpy --seed, KLONG_SEED or .srn: the same numbers every run).",
    ".srn": ".srn(n) Seed-Random-Numbers: start the interpreter's random numbers (.rn, and torch's\n"
            "        draws through .bkf) again from seed n, an integer >= 0; gives n.",
    ".mem": ".mem()  Memory: a dictionary of the interpreter's memory in bytes: \"allocated\",\n"
            "        \"reserved\", \"peak\", \"limit\" (0: none), \"process_peak\", and \"device\".\n"
            "        CUDA: the caching allocator's figures; CPU: the arrays its variables hold.",
    ".memreset": ".memreset()  Memory-Reset: start the \"peak\" of .mem again from now; gives .mem().",
    ".memclear": ".memclear()  Memory-Clear: give cached memory back (CUDA's cache; a garbage\n"
                 "             collection on the CPU); gives .mem().",
    ".rs": ".rs(x)  Read-String: the data value written in string x.",
    ".sys": ".sys(x) System: run command line x in the shell; gives its raw status (0 = success).",
    ".tc": ".tc(x)  To-Channel: write to output channel x from now on (0 selects .cout);\n"
           "        gives the previous one.",
    ".w": ".w(x)   Write: write x in readable form (strings quoted) to the To Channel; gives x.",
    ".x": ".x(x)   Exit: end the program with status 0 when x is false, else 1.",
    ".bkd": ".bkd(x) Backend-Display (extension): like .d, with backend arrays shown in their native form.",
    ".bkp": ".bkp(x) Backend-Print (extension): like .p, with backend arrays shown in their native form.",
    ".strict": ".strict()  Strict mode (extension): assigning an undeclared, undefined name inside a function\n"
               "           becomes an error; gives 1.",
    ".unsafe": ".unsafe()  Leave strict mode (extension); gives 0.",
    ".jacobian": ".jacobian(f;p)  Jacobian of f at point p, like p\u2202f.",
    ".hessian": ".hessian(f;p)   Matrix of second derivatives of the scalar function f at p.",
    ".gradcheck": ".gradcheck(f;p) Torch only: 1 when the autograd gradient of f at p agrees\n"
                  "                with a numeric one, else 0.",
    ".compile": ".compile(f;p)   Torch only: f compiled with the torch compiler, tried once on p.",
    ".compilex": ".compilex(f;p;opts)  Torch only: like .compile, with a dictionary of options\n"
                 "                     (\"mode\", \"backend\", \"fullgraph\", \"dynamic\").",
    ".cmodes": ".cmodes()       Torch only: the compile modes, backends and recommendations.",
    ".export": ".export(f;p;path)  Torch only: compile f, trace it at p and save the graph\n"
               "                   program to path; gives a dictionary describing the result.",
    ".graph": ".graph(f;p)     Torch only: f's graph, traced at p: printed as text, drawn as a\n"
              "                picture in notebooks; .graph(f;p;\"g.svg\") saves the picture.",
    ".plot": ".plot(y)        Plot y (a matrix: one line per row); .plot(x;y) against x. Last\n"
             "                arguments: a dictionary of options (title xlabel ylabel labels\n"
             "                file) and/or a file name (\"loss.png\"). Needs matplotlib.",
    ".hist": ".hist(x)        Histogram of x; options as .plot's, and bins (10).",
    ".imshow": ".imshow(m)      The matrix m as an image; options and file as .plot's.",
    ".rank": ".rank()         This process's rank among the torchrun processes (0 alone).",
    ".world": ".world()        How many processes (ranks) there are (1 alone).",
    ".allsum": ".allsum(x)      The sum of every rank's x, element by element.",
    ".allmean": ".allmean(x)     The mean of every rank's x, element by element.",
    ".allgather": ".allgather(x)   The list of every rank's x, in rank order.",
    ".bcast": ".bcast(x;r)     Rank r's x, on every rank.",
    ".barrier": ".barrier()      Wait until every rank has called it; gives [].",
    ".allgrad": ".allgrad(f;p)   The gradient f:>p, averaged over the ranks.",
    ".p0": ".p0(x)          Print x on rank 0 only (as .p does); gives x.",
    ".customgrad": ".customgrad(f;df)  f, differentiated with the derivative df (same arguments;\n"
                   "                   elementwise, the whole Jacobian, or one per argument).",
    ".numgrad": ".numgrad(f)     f, differentiated by central differences where autograd\n"
                "                cannot see into it.",
    ".anomaly": ".anomaly(x)     1: a NaN in a gradient names the Klong function that made it;\n"
                "                0: off. Gives the previous setting.",
    ".py": ".py(x)  Import the Python module, file or package x; its names become Klong names.",
    ".pyf": ".pyf(x;y)  Import only the names y (a string or list of strings) from module x.",
    ".pyc": ".pyc(x;y;z)  Call the Python callable x, or method [obj \"name\"], with positional\n"
            "             arguments y and keyword arguments z (a dictionary, :{} for none).",
    ".pya": ".pya(x;y)  The attribute named y of Python object x.",
    ".pyiter": ".pyiter(x)  The items of the Python iterable x (a DataLoader, a generator), one\n"
               "            pass, as a Klong list: {step(x)}'.pyiter(loader)",
    ".bkf": ".bkf(x)  Import math functions (a name or list of names) from the active backend,\n"
            "         so that they work on its arrays and can be differentiated.",
}

SYSTEM_VARIABLES = {
    ".a": ".a      The program's command-line arguments, a list of strings.",
    ".cin": ".cin    The standard input channel.",
    ".cout": ".cout   The standard output channel.",
    ".cerr": ".cerr   The standard error channel.",
    ".cols": ".cols   Screen width for the line editor (80).",
    ".e": ".e      Epsilon: the smallest difference between two reals near 1.",
    ".edit": ".edit   Line editing switch (1).",
    ".f": ".f      Inside a function: the function itself, for anonymous recursion.",
    ".fastpow": ".fastpow  When true, ^ compiled afterwards calls .pow (0).",
    ".h": ".h      The host system, :unix.",
    ".helpdb": ".helpdb  The help database filled by the help library ([]).",
    ".os.argv": ".os.argv  kgpy only: the words after the program's name (as .a).",
    ".os.env": ".os.env   kgpy only: the environment, a dictionary of strings.",
    ".system": ".system   kgpy only: handles of background services (none run: :{}).",
    "it": "it      At the prompt: the value printed last.",
}

COMMANDS = {
    "]h": "]h topic   Help on an operator, adverb or system name, or on an operator by its\n"
          "           name (]h Define); ]h alone lists the topics, ]hall shows every text.",
    "]a": "]a word    Apropos: the help lines that mention word.",
    "]l": "]l file    Load a file, like .l(\"file\").",
    "]!": "]! cmd     Run cmd in the shell.",
    "]T": "]T expr    Time expr like %timeit: repeated runs, mean and spread per loop;\n"
          "           ]T:n expr runs n loops per run.",
    "]t": "]t file    Transcript: append the input and the values printed to file;\n"
          "           ]t alone stops.",
    "]i": "]i dir     List the .kg files in dir (default: the first KLONGPATH directory).",
    "]b": "]b         Show the backend and device (they are chosen when kgpy starts).",
    "]o": "]o         Options the session started with: backend, dtype, seed, deterministic,\n"
          "           memory limit, amp, capture (kgpy --seed N --deterministic\n"
          "           --memory-limit 4GB --amp --amp-dtype bfloat16 --no-capture, or\n"
          "           KLONG_SEED ... ).",
    "]c": "]c         Capture and replay (torch): what was captured, why something was not;\n"
          "           ]c off and ]c on switch it (kgpy --no-capture, KLONG_CAPTURE=0).",
    "]p": "]p         Printing of long values at the prompt: ]p full shows them whole,\n"
          "           ]p on (or ]p N, a threshold) shortens them; ]p alone tells which.",
    "]q": "]q         Quit (like .x(0)); Ctrl-D too.",
}

SECTIONS = [
    ("Verbs", VERBS),
    ("Adverbs", ADVERBS),
    ("Other operators", OPERATORS),
    ("System functions", SYSTEM_FUNCTIONS),
    ("System variables", SYSTEM_VARIABLES),
    ("REPL commands", COMMANDS),
]

HELP = {key: text for _, table in SECTIONS for key, text in table.items()}

# "a::b Define: ..." -> the usage "a::b" and the names "Define"; "a|b  Max / Or: ..." has two
_MEANING = re.compile(r"^(?P<usage>\S+(?: \S+)?)\s+(?P<names>[A-Z][\w-]*(?: / [A-Z][\w-]*)*):")


def meanings(text):
    """The meanings of one help text: each starts with a usage line, and the indented lines
    after it continue its explanation."""
    parts = []
    for line in text.split("\n"):
        if parts and line[:1].isspace():
            parts[-1] += "\n" + line
        else:
            parts.append(line)
    return parts


def _names():
    """Operator names (lower case) -> the topics that define them: "define" -> ["::"]."""
    index = {}
    for topic, text in HELP.items():
        for meaning in meanings(text):
            m = _MEANING.match(meaning)
            if m:
                for name in m.group("names").split(" / "):
                    index.setdefault(name.strip().lower(), []).append(topic)
    return index


NAMES = _names()


def lookup(topic):
    """The help text for `topic`, or None. A system name may be given without its dot, an
    operator by its name (Define, Grade-Up, in any case); "all" gives every text."""
    topic = topic.strip()
    if topic in HELP:
        return HELP[topic]
    if topic and not topic.startswith(".") and "." + topic in HELP:
        return HELP["." + topic]
    if topic and topic[0] != "]" and "]" + topic in HELP:
        return HELP["]" + topic]
    if topic.lower() in NAMES:
        return "\n".join(HELP[t] for t in NAMES[topic.lower()])
    if topic == "all":
        return "\n".join(HELP.values())
    return None


def mentions(word):
    """(topic, usage line) of every meaning whose help mentions `word` (case-insensitive),
    in table order: `]a sum` finds "a+b  Plus: sum; atomic.", not the line of Transpose."""
    word = word.strip().lower()
    if not word:
        return []
    return [(topic, meaning.split("\n", 1)[0])
            for topic, text in HELP.items()
            for meaning in meanings(text) if word in meaning.lower()]


def apropos(word):
    """The topics whose help text mentions `word`, in table order."""
    return list(dict.fromkeys(topic for topic, _ in mentions(word)))


def topic_listing(width=80):
    """Every topic, grouped by section, as lines no wider than `width`."""
    lines = []
    for title, table in SECTIONS:
        lines.append(f"{title}:")
        line = " "
        for key in table:
            if len(line) + 1 + len(key) > width and line.strip():
                lines.append(line)
                line = " "
            line += " " + key
        if line.strip():
            lines.append(line)
    lines.append("]h topic shows one of them, e.g. ]h +  ]h .l  ]h Define;  ]hall shows all")
    return lines
