"""Ten Thousand's solved strategy: the solver, its tables, advice, analysis and players."""
