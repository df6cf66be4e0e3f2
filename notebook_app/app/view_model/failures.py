"""One error policy for work off the event loop: a failure is shown in words, it never ends the app.

:mod:`..workers` catches every exception of the app's workers and hands
:func:`failure_words` to the screen, which shows it where the failed work
would have shown its result (a banner, the form's status line, a
notification). A file that is strange, a folder that vanished, a bug: the
person reads what happened and the app goes on.
"""

from __future__ import annotations


def failure_words(error: BaseException | None) -> str:
    """An exception in words: the OS's own for an OSError, ours as written, the type for the rest."""
    if error is None:
        return "it stopped for an unknown reason"
    if isinstance(error, OSError):
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror or error}{where}"
    text = str(error)
    if type(error).__module__.startswith("notebook_app.") and text:
        return text  # the core's own errors are written for people
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
