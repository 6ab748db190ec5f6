"""Input and output: every file a person writes and what the solver writes back. The shared
loader (:mod:`.loading`: YAML and JSON with line numbers, one error format), boards and puzzles
(:mod:`.puzzle`), plans (:mod:`.plans`), the message catalogue's reader for the command line
(:mod:`.catalogue`), whole games recorded offline (:mod:`.offline`) and the progress shown by long
commands (:mod:`.progress`).

This ``__init__`` imports nothing.
"""
