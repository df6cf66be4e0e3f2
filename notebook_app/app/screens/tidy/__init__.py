"""The Tidy view (:mod:`.screen`) and its words for hunks, strays and what is accepted (:mod:`.words`)."""
