"""The compiler: source text to a runnable chunk. syntax/ reads text into a tree, lower/ turns
the tree into the IR, passes/ rewrite the IR, render/ writes Python source or closures from
it, and engine.py runs the stages in order and keeps what they made."""
