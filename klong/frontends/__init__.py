"""The ways in: the kgpy command line and REPL (with its ]-commands, completion,
highlighting and help), rich display for notebooks, the IPython magics and the Jupyter
kernel."""
