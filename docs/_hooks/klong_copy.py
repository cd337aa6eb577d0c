"""mkdocs hook: the copy button of a Klong session copies its input only.

A ```klong block written as a session ("?> " prompts, then what the REPL printed) gets a
data-copy attribute holding the input alone, which mkdocs-material's copy button copies
instead of the block's text. The input is found by klong.frontends.replcommands.strip_transcript, the
code with which the REPL and the Jupyter kernel drop prompts and output from pasted text.
"""
import html
import re

BLOCK = re.compile(r'<div class="highlight">(?P<body>(?:(?!</div>).)*?<code>(?P<code>.*?)</code>)',
                   re.S)


def on_page_content(content, page, config, files):
    try:
        from klong.interpreter import KlongInterpreter
        from klong.frontends.replcommands import strip_transcript
    except ImportError:
        return content

    def with_copy(match):
        if 'class="gp"' not in match.group("code"):
            return match.group(0)
        text = html.unescape(re.sub(r"<[^>]+>", "", match.group("code")))
        typed = strip_transcript(text, KlongInterpreter.needs_more)
        if typed == text:                            # not a Klong session
            return match.group(0)
        return f'<div class="highlight" data-copy="{html.escape(typed)}">{match.group("body")}'

    return BLOCK.sub(with_copy, content)
