#!/usr/bin/python3
"""Parse reStructuredText files with docutils, failing on any warning.

Sphinx's toctree directive, which the kernel's index files use, and its
ref and doc roles, which kprobes.rst uses, are accepted and not checked:
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
                   'glob': directives.flag, 'titlesonly': directives.flag}

    def run(self):
        return []


def sphinx_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """A Sphinx cross-reference role: its text, as a literal."""
    return [nodes.literal(rawtext, text)], []


directives.register_directive('toctree', Ignored)
for role in ('ref', 'doc'):
    roles.register_local_role(role, sphinx_role)
for path in sys.argv[1:]:
    with open(path, encoding='utf-8') as f:
        try:
            docutils.core.publish_doctree(f.read(), source_path=path,
                                          settings_overrides={'halt_level': 2,
                                                              'report_level': 5})
        except docutils.utils.SystemMessage as e:
            sys.exit(str(e))
