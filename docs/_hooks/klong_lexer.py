"""mkdocs hook: colour ```klong blocks with klong.frontends.highlight.KlongLexer.

When the lexer is registered as a pygments plugin (klong installed with its entry points),
pygments finds it by name and there is nothing to do. When klong.frontends.highlight exists but is not
registered, the highlight extension is taught the name here. Without it the blocks are shown
as plain text, and the site still builds.
"""


def on_config(config):
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        get_lexer_by_name("klong")
        return config
    except ClassNotFound:
        pass
    try:
        from klong.frontends.highlight import KlongLexer
    except ImportError:
        return config

    import pymdownx.highlight

    original = pymdownx.highlight.get_lexer_by_name
    aliases = {alias.lower() for alias in KlongLexer.aliases}

    def lookup(name, **options):
        if name.lower() in aliases:
            return KlongLexer(**options)
        return original(name, **options)

    pymdownx.highlight.get_lexer_by_name = lookup
    return config
