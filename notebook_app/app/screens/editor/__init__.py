"""The built-in editor (:mod:`.screen`) and its find controller (:mod:`.find`)."""
