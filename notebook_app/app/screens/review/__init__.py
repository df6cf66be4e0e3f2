"""The review view (:mod:`.screen`) and the rows of its proposal list (:mod:`.rows`)."""
