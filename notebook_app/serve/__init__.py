"""``persona-notebook serve``: the notebook in a browser, over textual-serve, behind a token.

Each browser tab runs the real notebook as its own process (textual-serve's
model), opened exactly as ``persona-notebook HOME`` opens it; this package only
listens, checks the token and the origin, and hands the page its own files.
It imports neither the app nor Textual: the app runs in the processes it starts.
"""
