"""A Jupyter kernel for Klong, on ipykernel (the `jupyter` extra: in the checkout,
pip install -e '.[jupyter]').

    python -m klong.kernel install --user      register it ("Klong" in Jupyter's list)
    python -m klong.kernel -f CONNECTION_FILE  what Jupyter runs

A cell runs as lines typed at kgpy's prompt do: ]-commands work, a transcript pasted with
its "?> " prompts loses them and its output, and long values are shortened (]p full shows
them whole). The value of the last line is the cell's result, printed as the REPL prints
it; the first error ends the cell and is reported as a Klong error. Completion (Tab) and
inspection (Shift-Tab) come from klong.frontends.completion, as at the prompt.
"""
