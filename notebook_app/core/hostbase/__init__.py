"""One object per host: the Host base every host package extends (:mod:`.host`) and the registry (:mod:`.registry`).

At the bottom of the core, beneath the home and the hosts package, so any layer may ask a host its facts
without a circle: the host packages (``core/hosts/*``) import this, never the reverse at run time.
"""
