#!/usr/bin/python3
"""Parse reStructuredText files with docutils, failing on any warning.

Sphinx's toctree directive, which the kernel's index files use, is
accepted and ignored: docutils alone does not know it.
"""
import sys

import docutils.core
import docutils.utils
from docutils.parsers.rst import Directive, directives


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


directives.register_directive('toctree', Ignored)
for path in sys.argv[1:]:
    with open(path, encoding='utf-8') as f:
        try:
            docutils.core.publish_doctree(f.read(), source_path=path,
                                          settings_overrides={'halt_level': 2,
                                                              'report_level': 5})
        except docutils.utils.SystemMessage as e:
            sys.exit(str(e))
