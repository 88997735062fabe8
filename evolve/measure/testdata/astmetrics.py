"""Reference metrics computed with Python's own ast module.

Reads one JSON object per line on stdin: {"id": ..., "src": ...}; the
first line is a header {"stdlib": [...], "third_party": [...]}. Writes one
JSON object per line: {"id": ..., "metrics": {key: value}}.

Written for adaptbench's evolve/measure tests: it restates, on Python's
ast, the counting rules the package documents (the GeneBench artifact's
rules), so that the Go implementation on tree-sitter can be compared with
an independent one. Token metrics use nltk's NLTKWordTokenizer when nltk
is importable (word_tokenize without sentence splitting).
"""

import ast
import json
import math
import sys
from collections import Counter

try:
    from nltk.tokenize import NLTKWordTokenizer
    TOKENIZER = NLTKWordTokenizer()
except ImportError:  # the token metrics are then left out
    TOKENIZER = None

LOOPS = (ast.For, ast.While)
COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
OPS = (ast.BoolOp, ast.Compare, ast.BinOp, ast.UnaryOp)
CASTS = {"int", "float", "str", "bool", "complex", "bytes", "list", "tuple", "set", "dict"}


def children(node):
    return list(ast.iter_child_nodes(node))


def has_op(expr):
    return any(isinstance(n, OPS) for n in ast.walk(expr))


def conditions_in(test):
    if isinstance(test, ast.BoolOp):
        return sum(conditions_in(v) for v in test.values)
    if isinstance(test, (ast.Compare, ast.Name, ast.Call, ast.Constant)):
        return 1
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return conditions_in(test.operand)
    return 0


class Walk:
    def __init__(self, stdlib, third_party):
        self.stdlib = stdlib
        self.third = {p.lower() for p in third_party}
        self.c = Counter()
        self.variables = set()
        self.lines = set()
        self.recursive = []
        self.cur_func = None
        self.max_loop = self.max_if = self.max_conds = 0
        self.calls = []
        self.imports = {}  # name -> module (None: bound by a plain import)
        self.funcs = set()

    # nesting: n = if/for/while excluding elif-like ifs; l = loops; i = ifs
    def visit(self, node, parent, n, l, i):
        c = self.c
        if hasattr(node, "lineno") and not isinstance(node, ast.Module):
            self.lines.add(node.lineno)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            self.variables.add(node.id)
        elif_like = (isinstance(node, ast.If) and isinstance(parent, ast.If)
                     and parent.orelse and parent.orelse[0] is node)
        if isinstance(node, (ast.If, ast.For, ast.While)) and not elif_like:
            c["nesting"] += n
            n += 1
        if isinstance(node, ast.If):
            i += 1
            self.max_if = max(self.max_if, i)
            c["conditions"] += 1
            if has_op(node.test):
                c["predicates"] += 1
            self.max_conds = max(self.max_conds, conditions_in(node.test))
        elif isinstance(node, LOOPS):
            l += 1
            self.max_loop = max(self.max_loop, l)
            c["loops"] += 1
            if isinstance(node, ast.While) and has_op(node.test):
                c["predicates"] += 1
        elif isinstance(node, ast.IfExp):
            c["conditions"] += 1
        elif isinstance(node, COMPS):
            c["complex1"] += 1
            if isinstance(node, ast.ListComp):
                c["arrays"] += 1
            for g in node.generators:
                c["loops"] += 1
                c["conditions"] += len(g.ifs)
                c["predicates"] += sum(1 for e in g.ifs if has_op(e))
        elif isinstance(node, ast.List):
            c["arrays"] += 1
            c["complex1"] += 1
        elif isinstance(node, ast.Lambda):
            c["complex2"] += 1
            if isinstance(node.body, (ast.Compare, ast.BoolOp)):
                c["predicates"] += 1
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            c["assignments"] += 1
        elif isinstance(node, ast.AugAssign):
            c["assignments"] += 1
            c["operators"] += 1
        elif isinstance(node, (ast.BinOp, ast.UnaryOp, ast.BoolOp)):
            c["operators"] += 1
        elif isinstance(node, ast.Compare):
            c["operators"] += len(node.ops)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self.add_import(node)
        elif isinstance(node, ast.Call):
            self.call(node)
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            c["complex2"] += len(node.decorator_list)
        if isinstance(node, ast.FunctionDef):
            self.funcs.add(node.name)
            self.cur_func = node.name
        for ch in children(node):
            self.visit(ch, node, n, l, i)
        if isinstance(node, ast.FunctionDef):
            self.cur_func = None

    def add_import(self, node):
        if isinstance(node, ast.Import):
            for a in node.names:
                self.imports.setdefault(a.name, None)
                if a.asname:
                    self.imports.setdefault(a.asname, a.name)
            return
        mod = (node.module or "").split(".")[0]
        for a in node.names:
            self.imports.setdefault(a.name, mod)
            if a.asname:
                self.imports.setdefault(a.asname, mod)

    def call(self, node):
        f = node.func
        if isinstance(f, ast.Name):
            if f.id in ("any", "all", "range"):
                self.c["predicates"] += sum(1 for a in node.args if has_op(a))
            if f.id in CASTS and any(isinstance(a, ast.Call) for a in node.args):
                self.c["casts"] += 1
            if self.cur_func is not None and f.id == self.cur_func and f.id not in self.recursive:
                self.recursive.append(f.id)
            if f.id != "enumerate":
                self.calls.append(f.id)
        elif isinstance(f, ast.Attribute):
            if f.attr == "Thread":
                self.c["complex2"] += 1
            root = f.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name):
                self.calls.append(f.attr if root.id == "self" else root.id)

    def known(self, module):
        if not module:
            return False
        top = module.split(".")[0]
        return top in self.stdlib or top.lower() in self.third

    def classify(self):
        third = inter = intra = 0
        for name in self.calls:
            if name in self.imports:
                if self.known(name) or self.known(self.imports[name]):
                    third += 1
                else:
                    inter += 1
            elif name in self.funcs:
                intra += 1
        return third, inter, intra


class CFG:
    """The package's C1 graph convention, restated on ast."""

    def __init__(self):
        self.nodes = self.edges = self.units = 0
        self.loops = []

    def node(self, preds):
        self.nodes += 1
        self.edges += len(preds)
        return self.nodes

    def unit(self, body):
        self.units += 1
        saved = self.loops
        self.loops = []
        entry = self.node([])
        self.nodes += 1  # exit
        out = self.stmts(body, [entry])
        self.edges += len(out)
        self.loops = saved

    def stmts(self, body, preds):
        for s in body:
            preds = self.stmt(s, preds)
        return preds

    def stmt(self, s, preds):
        if isinstance(s, ast.If):
            t = self.node(preds)
            out = self.stmts(s.body, [t])
            if s.orelse:
                out += self.stmts(s.orelse, [t])
            else:
                out.append(t)
            return out
        if isinstance(s, (ast.For, ast.AsyncFor, ast.While)):
            h = self.node(preds)
            self.loops.append([])
            body = self.stmts(s.body, [h])
            self.edges += len(body)
            breaks = self.loops.pop()
            if s.orelse:
                return breaks + self.stmts(s.orelse, [h])
            return breaks + [h]
        if isinstance(s, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            t = self.node(preds)
            out = self.stmts(s.body, [t])
            handlers = []
            for h in s.handlers:
                handlers += self.stmts(h.body, [self.node([t])])
            out = self.stmts(s.orelse, out) + handlers
            if s.finalbody:
                out = self.stmts(s.finalbody, out)
            return out
        if isinstance(s, (ast.With, ast.AsyncWith)):
            return self.stmts(s.body, [self.node(preds)])
        if isinstance(s, ast.Match):
            m = self.node(preds)
            out = []
            wildcard = False
            for case in s.cases:
                out += self.stmts(case.body, [self.node([m])])
                p = case.pattern
                wildcard = case.guard is None and isinstance(p, ast.MatchAs) and p.pattern is None and p.name is None
            if not wildcard:
                out.append(m)
            return out
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            n = self.node(preds)
            self.unit(s.body)
            return [n]
        if isinstance(s, ast.ClassDef):
            return self.stmts(s.body, [self.node(preds)])
        if isinstance(s, (ast.Return, ast.Raise)):
            self.node(preds)
            self.edges += 1
            return []
        if isinstance(s, ast.Break):
            n = self.node(preds)
            if self.loops:
                self.loops[-1].append(n)
            return []
        if isinstance(s, ast.Continue):
            self.node(preds)
            if self.loops:
                self.edges += 1
            return []
        return [self.node(preds)]


def cyclomatic(tree):
    g = CFG()
    g.unit(tree.body)
    return g.edges - g.nodes + 2 * g.units


def entropy(tokens):
    counts = Counter(tokens)
    total = len(tokens)
    h = 0.0
    for k in counts.values():
        p = k / total
        h -= p * math.log2(p)
    return h


def measure(src, stdlib, third_party):
    tree = ast.parse(src)
    w = Walk(stdlib, third_party)
    w.visit(tree, None, 0, 0, 0)
    third, inter, intra = w.classify()
    c = w.c
    out = {
        "C1": cyclomatic(tree),
        "C2": c["predicates"],
        "C3": c["nesting"],
        "C4": 2 * (c["complex2"] + len(w.recursive)) + c["complex1"],
        "C5": third, "C6": inter, "C7": intra,
        "R2": len(w.lines), "R3": len(w.variables), "R4": c["arrays"],
        "R5": c["operators"], "R6": c["conditions"], "R7": c["loops"],
        "R8": c["assignments"], "R9": w.max_loop, "R10": w.max_if,
        "R12": c["casts"], "R14": w.max_conds,
    }
    if TOKENIZER is not None:
        toks = TOKENIZER.tokenize(src)
        out["R1"] = len(toks)
        out["R11"] = max(len(TOKENIZER.tokenize(line)) for line in src.split("\n"))
        out["R13"] = entropy(toks)
    return out


def main():
    lines = sys.stdin.read().splitlines()
    head = json.loads(lines[0])
    stdlib = set(head["stdlib"])
    for line in lines[1:]:
        rec = json.loads(line)
        print(json.dumps({"id": rec["id"], "metrics": measure(rec["src"], stdlib, head["third_party"])}))


if __name__ == "__main__":
    main()
