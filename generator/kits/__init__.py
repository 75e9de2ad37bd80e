"""Building kits from one frozen plan.

``plan`` turns the command line's options into a ``BuildPlan`` once, checking every one before
anything is written; ``kit`` builds one kit from a ``KitPlan`` (its files, kit.pdf, the manifest);
``index`` writes the home page (generator.kits.homepage) over the manifests; ``run`` carries a plan out on worker
processes, and writes the calibration sheet through the same writers. Builders take plans and
never check or change them again."""
