"""The value of .graph(f;x): the graph torch traced from a Klong function, as text (what the
prompt prints) and as a picture (what a notebook shows, and what `save` writes as SVG).

The picture is drawn by Graphviz when its Python package and its `dot` program are
installed, else by matplotlib (the `plot` extra) with a layered layout of our own; with
neither, the graph is text only.
"""
from ..errors import KlongError

NO_DRAWING = "a picture of the graph needs matplotlib (pip install -e '.[plot]') or graphviz"


class Graph:
    def __init__(self, text, nodes):
        self.text = text
        self.nodes = nodes          # [(name, label, [names of its inputs])], inputs first

    @property
    def klong_name(self):            # how the prompt shows the value: the graph's text
        return self.text

    def __str__(self):
        return self.text

    def edges(self):
        return [(source, name) for name, _, inputs in self.nodes for source in inputs]

    def svg(self):
        """The picture as SVG text; None when nothing can draw it."""
        if _graphviz() is not None:
            return self._graphviz_svg()
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return None
        return self._matplotlib_svg()

    def _repr_svg_(self):
        return self.svg()

    def save(self, path):
        svg = self.svg()
        if svg is None:
            raise KlongError("module", f".graph: {NO_DRAWING}")
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(svg)
        except OSError as e:
            raise KlongError("io", f"cannot write {path}: {e.strerror}") from None
        return path

    def _graphviz_svg(self):
        graphviz = _graphviz()
        dot = graphviz.Digraph(graph_attr={"rankdir": "TB"},
                               node_attr={"shape": "box", "fontname": "monospace"})
        for name, label, _ in self.nodes:
            dot.node(name, label)
        for source, target in self.edges():
            dot.edge(source, target)
        return dot.pipe(format="svg").decode("utf-8")

    def _matplotlib_svg(self):
        import io

        from matplotlib import rc_context
        from matplotlib.figure import Figure
        position = self.layout()
        depth = max((y for _, y in position.values()), default=0)
        width = max((sum(1 for _, y in position.values() if y == d) for d in range(depth + 1)),
                    default=1)
        figure = Figure(figsize=(max(3, 1.8 * width), max(2, 1.0 * (depth + 1))))
        ax = figure.add_axes([0, 0, 1, 1])
        ax.set_axis_off()
        ax.set_xlim(-0.7, width - 0.3)
        ax.set_ylim(-depth - 0.5, 0.5)
        for source, target in self.edges():
            (x0, y0), (x1, y1) = position[source], position[target]
            ax.annotate("", xy=(x1, -y1 + 0.18), xytext=(x0, -y0 - 0.18),
                        arrowprops={"arrowstyle": "->", "color": "0.4"})
        for name, label, _ in self.nodes:
            x, y = position[name]
            ax.text(x, -y, label, ha="center", va="center", family="monospace",
                    bbox={"boxstyle": "round", "facecolor": "#eef3fb", "edgecolor": "0.4"})
        buffer = io.StringIO()
        with rc_context({"svg.fonttype": "none"}):      # labels stay text, not outlines
            figure.savefig(buffer, format="svg")
        return buffer.getvalue()

    def layout(self):
        """{name: (column, layer)}: a node one layer below its deepest input, the nodes of
        a layer side by side, centred."""
        layer = {}
        for name, _, inputs in self.nodes:
            layer[name] = 1 + max((layer[i] for i in inputs if i in layer), default=-1)
        width = {}
        for l in layer.values():
            width[l] = width.get(l, 0) + 1
        widest = max(width.values(), default=1)
        seen, position = {}, {}
        for name, _, _ in self.nodes:
            l = layer[name]
            column = seen.get(l, 0)
            seen[l] = column + 1
            position[name] = ((widest - width[l]) / 2 + column, l)
        return position


def _graphviz():
    """The graphviz package, when it and its dot program are installed."""
    import shutil       # here, not at start-up (it loads the compression libraries)
    if shutil.which("dot") is None:
        return None
    try:
        import graphviz
    except ImportError:
        return None
    return graphviz
