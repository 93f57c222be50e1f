"""The techniques, one module per family; `solvers.human.table` lists them in order."""
