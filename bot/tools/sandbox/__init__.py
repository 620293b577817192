"""The local sandbox (`python -m bot sandbox`): run.py owns the process, the prompt and the syntax
(its docstring is the user's guide), parse.py reads a line against the synced commands (pure),
session.py drives the emulator and prints what each user sees that is new."""
