"""The run-time value model and what every evaluation shares: values and their kinds, the
running context, limits, functions, matching, hooks, memory accounting, settings,
conversion to and from Python, display, and the glue to differentiation."""
