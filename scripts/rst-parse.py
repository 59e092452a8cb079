#!/usr/bin/python3
"""Parse reStructuredText files with docutils, failing on any warning.

Sphinx's toctree directive, which the kernel's index files use, the
kernel's kernel-doc directive, and Sphinx's ref, doc and file roles,
which kprobes.rst and fprobe.rst use, are accepted and not checked:
docutils alone does not know them.
"""
import sys

import docutils.core
import docutils.utils
from docutils import nodes
from docutils.parsers.rst import Directive, directives, roles


class Ignored(Directive):
    """A Sphinx directive that docutils does not know: parsed, not checked."""
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = {'maxdepth': directives.unchanged, 'caption': directives.unchanged,
                   'hidden': directives.flag, 'numbered': directives.unchanged,
                   'glob': directives.flag, 'titlesonly': directives.flag,
                   'internal': directives.flag, 'export': directives.flag,
                   'functions': directives.unchanged, 'identifiers': directives.unchanged}

    def run(self):
        return []


def sphinx_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """A Sphinx cross-reference role: its text, as a literal."""
    return [nodes.literal(rawtext, text)], []


for directive in ('toctree', 'kernel-doc'):
    directives.register_directive(directive, Ignored)
for role in ('ref', 'doc', 'file'):
    roles.register_local_role(role, sphinx_role)
for path in sys.argv[1:]:
    with open(path, encoding='utf-8') as f:
        try:
            docutils.core.publish_doctree(f.read(), source_path=path,
                                          settings_overrides={'halt_level': 2,
                                                              'report_level': 5})
        except docutils.utils.SystemMessage as e:
            sys.exit(str(e))
