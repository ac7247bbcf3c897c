"""Parser tests: every statement form and expression as a compact s-expression, positions,
statement sources, keyword rules, friendly syntax errors, deep input and random input."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradsh import ast
from gradsh.errors import GradshError, Pos, format_error
from gradsh.parser import MAX_DEPTH, MAX_NESTING, IncompleteInput, parse

# ---------------------------------------------------------------------------------------------
# An AST printer: the golden format of these tests
# ---------------------------------------------------------------------------------------------


def dump(node: object) -> str:
    """A node as a one-line s-expression: `(assign c (* (* a a) 5))`."""
    if node is None:
        return "_"
    if isinstance(node, ast.Program):
        return "\n".join(dump(stmt) for stmt in node.body)
    if isinstance(node, tuple):
        return " ".join(dump(item) for item in node)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Number):
        return node.text
    if isinstance(node, ast.String):
        return '"' + node.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(node, ast.Bool):
        return str(node.value)
    if isinstance(node, ast.NoneLit):
        return "None"
    if isinstance(node, ast.Ellipsis_):
        return "..."
    if isinstance(node, ast.DeviceLit):
        return f"#{node.value}"
    if isinstance(node, ast.ListLit):
        return f"[{dump(node.items)}]"
    if isinstance(node, ast.TupleLit):
        return f"(tuple{_rest(node.items)})"
    if isinstance(node, ast.Attribute):
        return f"(. {dump(node.obj)} {node.name})"
    if isinstance(node, ast.Keyword):
        return f"{node.name}={dump(node.value)}"
    if isinstance(node, ast.Call):
        return f"(call {dump(node.func)}{_rest(node.args)}{_rest(node.kwargs)})"
    if isinstance(node, ast.Slice):
        return f"(: {dump(node.start)} {dump(node.stop)} {dump(node.step)})"
    if isinstance(node, ast.Index):
        return f"(index {dump(node.obj)}{_rest(node.items)})"
    if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp)):
        return f"({node.op} {dump(node.left)} {dump(node.right)})"
    if isinstance(node, ast.UnaryOp):
        return f"({node.op} {dump(node.operand)})"
    if isinstance(node, ast.Lambda):
        return f"(lambda ({' '.join(node.params)}) {dump(node.body)})"
    if isinstance(node, ast.Assign):
        return f"(= {dump(node.target)} {dump(node.value)})"
    if isinstance(node, ast.AugAssign):
        return f"({node.op}= {dump(node.target)} {dump(node.value)})"
    if isinstance(node, ast.ExprStmt):
        return f"(expr {dump(node.expr)})"
    if isinstance(node, ast.Print):
        return f"(print{_rest(node.args)})"
    if isinstance(node, ast.Show):
        return f"(show{_rest(node.names)})"
    if isinstance(node, ast.Graph):
        return f"(graph {dump(node.target)} {dump(node.output)})"
    if isinstance(node, ast.Explain):
        return f"(explain {dump(node.target)})"
    if isinstance(node, ast.Assert):
        return f"(assert {dump(node.test)} {dump(node.message)})"
    if isinstance(node, ast.Backward):
        flags = ["retain"] * node.retain_graph + ["create_graph"] * node.create_graph
        return f"(backward {dump(node.target)}{''.join(' ' + f for f in flags)})"
    if isinstance(node, (ast.Seed, ast.Device, ast.Dtype)):
        return f"({type(node).__name__.lower()} {dump(node.value)})"
    if isinstance(node, ast.Del):
        return f"(del{_rest(node.names)})"
    if isinstance(node, ast.GradMode):
        return f"({node.kind} {dump(node.arg)} {{{dump(node.body)}}})"
    if isinstance(node, ast.DetectAnomaly):
        return f"(detect_anomaly {dump(node.check_nan)} {{{dump(node.body)}}})"
    if isinstance(node, ast.Repeat):
        return f"(repeat {dump(node.count)} {{{dump(node.body)}}})"
    raise AssertionError(f"dump() does not know {type(node).__name__}")


def _rest(items: tuple[object, ...]) -> str:
    return "".join(" " + dump(item) for item in items)


def p(source: str) -> str:
    return dump(parse(source))


def syntax_error(source: str) -> GradshError:
    with pytest.raises(GradshError) as info:
        parse(source, "t.grad")
    assert info.value.kind == "SyntaxError"
    return info.value


def walk(node: object):
    """Every node under `node` (iteratively), for checks that hold for all of them."""
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        if dataclasses.is_dataclass(current):
            for field in dataclasses.fields(current):
                value = getattr(current, field.name)
                values = value if isinstance(value, tuple) else (value,)
                pending.extend(v for v in values if dataclasses.is_dataclass(v))


# ---------------------------------------------------------------------------------------------
# Statements
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source, expected",
    [
        ("x = e", "(= x e)"),
        ("x.grad = None", "(= (. x grad) None)"),
        ("x.data = e", "(= (. x data) e)"),
        ("x.requires_grad = false", "(= (. x requires_grad) False)"),
        ("x[0] = 1", "(= (index x 0) 1)"),
        ("x[:, 1] = e", "(= (index x (: _ _ _) 1) e)"),
        ("a, b = e", "(= (tuple a b) e)"),
        ("(a, b) = e", "(= (tuple a b) e)"),
        ("values, indices = x.max(dim=0)", "(= (tuple values indices) (call (. x max) dim=0))"),
        ("x = 1, 2", "(= x (tuple 1 2))"),
        ("x = 1,", "(= x (tuple 1))"),
        ("x += e", "(+= x e)"),
        ("x -= e", "(-= x e)"),
        ("x *= e", "(*= x e)"),
        ("x /= e", "(/= x e)"),
        ("w.data -= lr * w.grad", "(-= (. w data) (* lr (. w grad)))"),
        ("x[0] += 1", "(+= (index x 0) 1)"),
        ("m &= k", "(&= m k)"),
        ("m |= k; m ^= k", "(|= m k)\n(^= m k)"),
        ("a * 2", "(expr (* a 2))"),
        ("a, b", "(expr (tuple a b))"),
    ],
)
def test_assignments_and_expression_statements(source: str, expected: str) -> None:
    assert p(source) == expected


@pytest.mark.parametrize(
    "source, expected",
    [
        ("print a, c.grad", "(print a (. c grad))"),
        ("print(a.grad, c.grad)", "(print (. a grad) (. c grad))"),
        ("print (a, b)", "(print a b)"),
        ("print(a)", "(print a)"),
        ("print((a, b))", "(print (tuple a b))"),
        ("print()", "(print)"),
        ("print", "(print)"),
        ("print a,", "(print a)"),
        ('print "loss:", loss', '(print "loss:" loss)'),
        ("print -x", "(print (- x))"),
        ("print [1, 2]", "(print [1 2])"),
        ("print(\n  a,\n  b,\n)", "(print a b)"),
        ("show", "(show)"),
        ("show a, c", "(show a c)"),
        ("show(a, c)", "(show a c)"),
        ("graph d", "(graph d _)"),
        ('graph d -o "d.svg"', '(graph d "d.svg")'),
        ('graph(d) -o "d.svg"', '(graph d "d.svg")'),
        ("graph d - o", "(graph (- d o) _)"),
        ("graph d-o", "(graph (- d o) _)"),
        ("explain c", "(explain c)"),
        ("explain(c)", "(explain c)"),
        ("assert e", "(assert e _)"),
        ('assert a.grad == 4800, "bad grad"', '(assert (== (. a grad) 4800) "bad grad")'),
        ("backward d", "(backward d)"),
        ("backward d retain", "(backward d retain)"),
        ("backward d create_graph", "(backward d create_graph)"),
        ("backward d retain create_graph", "(backward d retain create_graph)"),
        ("backward d retain_graph", "(backward d retain)"),
        ("backward loss.sum()", "(backward (call (. loss sum)))"),
        ("seed 20200910", "(seed 20200910)"),
        ("seed(1)", "(seed 1)"),
        ("device cuda", "(device cuda)"),
        ('device "cuda:0"', '(device "cuda:0")'),
        ("device cuda:0", "(device #cuda:0)"),
        ("device cpu", "(device cpu)"),
        ("dtype float64", "(dtype float64)"),
        ("dtype torch.float64", "(dtype (. torch float64))"),
        ("del x", "(del x)"),
        ("del x, y", "(del x y)"),
        ("del (x, y)", "(del x y)"),
    ],
)
def test_statement_words(source: str, expected: str) -> None:
    assert p(source) == expected


@pytest.mark.parametrize(
    "source, expected",
    [
        ("no_grad { e = a * 2 }", "(no_grad _ {(= e (* a 2))})"),
        ("enable_grad { e = a * 2 }", "(enable_grad _ {(= e (* a 2))})"),
        ("set_grad_enabled(false) { e = a }", "(set_grad_enabled False {(= e a)})"),
        ("set_grad_enabled(mode=False) { }", "(set_grad_enabled False {})"),
        ("no_grad() { }", "(no_grad _ {})"),
        ("torch.no_grad() { e = a }", "(no_grad _ {(= e a)})"),
        ("torch.autograd.no_grad() { e = a }", "(no_grad _ {(= e a)})"),
        ("torch.enable_grad() { }", "(enable_grad _ {})"),
        ("with no_grad() { e = a }", "(no_grad _ {(= e a)})"),
        ("with torch.no_grad() { e = a }", "(no_grad _ {(= e a)})"),
        ("with torch.set_grad_enabled(False) { e = a }", "(set_grad_enabled False {(= e a)})"),
        ("with no_grad { }", "(no_grad _ {})"),
        ("detect_anomaly { y = x / x }", "(detect_anomaly _ {(= y (/ x x))})"),
        ("torch.autograd.detect_anomaly(check_nan=False) { y.backward() }",
         "(detect_anomaly False {(expr (call (. y backward)))})"),
        ("with torch.autograd.detect_anomaly(True) { }", "(detect_anomaly True {})"),
        (
            "repeat 3 { loss = (w*x).sum(); loss.backward() }",
            "(repeat 3 {(= loss (call (. (* w x) sum))) (expr (call (. loss backward)))})",
        ),
        ("repeat(3) { }", "(repeat 3 {})"),
        ("repeat n + 1 { }", "(repeat (+ n 1) {})"),
        (
            "no_grad {\n  w -= 0.1 * w.grad\n\n  w.grad = None\n}",
            "(no_grad _ {(-= w (* 0.1 (. w grad))) (= (. w grad) None)})",
        ),
        ("no_grad {\n}", "(no_grad _ {})"),
        ("no_grad { ; ; a ; }", "(no_grad _ {(expr a)})"),
        (
            "repeat 2 {\n  no_grad { print a }\n  show\n}",
            "(repeat 2 {(no_grad _ {(print a)}) (show)})",
        ),
    ],
)
def test_blocks(source: str, expected: str) -> None:
    assert p(source) == expected


def test_statement_separators_comments_and_blank_lines() -> None:
    source = "# a comment\n\na = 1; b = 2 # trailing\n;;\n   \n\tc = 3;\n"
    assert p(source) == "(= a 1)\n(= b 2)\n(= c 3)"
    assert p("") == ""
    assert p("\n\n# nothing\n") == ""
    assert p(";") == ""


def test_line_endings_bom_and_continuations() -> None:
    program = parse("\ufeffa = 1\r\nb = [1,\r\n 2]\rc = 3")
    assert dump(program) == "(= a 1)\n(= b [1 2])\n(= c 3)"
    assert program.source == "a = 1\nb = [1,\n 2]\nc = 3"
    assert program.body[0].pos == Pos(1, 1, 1, 5)
    assert p("x = a + \\\n    b") == "(= x (+ a b))"
    assert p("x = f(a,\n      b=2,  # the second\n      )") == "(= x (call f a b=2))"
    assert p("x = [\n  [1, 2],\n  [3, 4],\n]") == "(= x [[1 2] [3 4]])"


# ---------------------------------------------------------------------------------------------
# The keyword rule: statement words are keywords only at the start of a statement
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source, expected",
    [
        ("x.device", "(expr (. x device))"),
        ("d = x.dtype", "(= d (. x dtype))"),
        ("x.backward()", "(expr (call (. x backward)))"),
        ("x.backward(retain_graph=True)", "(expr (call (. x backward) retain_graph=True))"),
        ("backward(d)", "(expr (call backward d))"),
        ("backward (d)", "(expr (call backward d))"),
        ("torch.autograd.backward(d)", "(expr (call (. (. torch autograd) backward) d))"),
        ("torch.manual_seed(1)", "(expr (call (. torch manual_seed) 1))"),
        ("opt.step()", "(expr (call (. opt step)))"),
        ('t = tensor(2., device="cuda")', '(= t (call tensor 2. device="cuda"))'),
        ("t = ones(2, device=cpu, dtype=float64)", "(= t (call ones 2 device=cpu dtype=float64))"),
        ("f = torch.no_grad", "(= f (. torch no_grad))"),
        ("dtype = x.dtype", "(= dtype (. x dtype))"),
        ("device = x.device", "(= device (. x device))"),
        ("device = cpu", "(= device cpu)"),
        ("graph = 3", "(= graph 3)"),
        ("seed += 1", "(+= seed 1)"),
        ("print = 3", "(= print 3)"),
        ("show.x = 1", "(= (. show x) 1)"),
        ("seed, n = 1, 2", "(= (tuple seed n) (tuple 1 2))"),
        ("seed * 2", "(expr (* seed 2))"),
        ("dtype == float32", "(expr (== dtype float32))"),
        ("dtype", "(expr dtype)"),
        ("device", "(expr device)"),
        ("backward", "(expr backward)"),
        ("x = seed", "(= x seed)"),
        ("print print", "(print print)"),
        ("print(device)", "(print device)"),
        ("y = x.repeat(2, 3)", "(= y (call (. x repeat) 2 3))"),
        ("a = 1; device cpu", "(= a 1)\n(device cpu)"),
        ("no_grad { device cpu }", "(no_grad _ {(device cpu)})"),
        (
            "h = x.register_hook(lambda g: print(g))",
            "(= h (call (. x register_hook) (lambda (g) (call print g))))",
        ),
    ],
)
def test_statement_words_are_not_reserved(source: str, expected: str) -> None:
    assert p(source) == expected


# ---------------------------------------------------------------------------------------------
# Expressions
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source, expected",
    [
        ("2", "2"),
        ("2.", "2."),
        (".5", ".5"),
        ("1e-3", "1e-3"),
        ("1_000", "1_000"),
        ("2.5E+2", "2.5E+2"),
        ('"s"', '"s"'),
        ("'s'", '"s"'),
        ('"a\\"b\\n"', '"a\\"b\n"'),
        ("true", "True"),
        ("True", "True"),
        ("false", "False"),
        ("False", "False"),
        ("None", "None"),
        ("[[1, 2], [3, 4]]", "[[1 2] [3 4]]"),
        ("[]", "[]"),
        ("[1,]", "[1]"),
        ("(2, 3)", "(tuple 2 3)"),
        ("(6,)", "(tuple 6)"),
        ("()", "(tuple)"),
        ("(e)", "e"),
        ("((e))", "e"),
        ("cuda:0", "#cuda:0"),
        ("torch.float64", "(. torch float64)"),
        ("rand(10, requires_grad=True)", "(call rand 10 requires_grad=True)"),
        ("tensor(2.0, grad)", "(call tensor 2.0 grad)"),
        ("f(a,)", "(call f a)"),
        ("a[0]", "(index a 0)"),
        ("a[:, 1]", "(index a (: _ _ _) 1)"),
        ("a[1:3]", "(index a (: 1 3 _))"),
        ("a[::2]", "(index a (: _ _ 2))"),
        ("a[1::]", "(index a (: 1 _ _))"),
        ("a[:-1]", "(index a (: _ (- 1) _))"),
        ("a[..., 0]", "(index a ... 0)"),
        ("a[None]", "(index a None)"),
        ("a[-1]", "(index a (- 1))"),
        ("a[cuda:0]", "(index a (: cuda 0 _))"),
        ("a.grad_fn.next_functions[0][0]", "(index (index (. (. a grad_fn) next_functions) 0) 0)"),
        ("grad(c, a)[0]", "(index (call grad c a) 0)"),
        ("x.detach().requires_grad_()", "(call (. (call (. x detach)) requires_grad_))"),
        ("(w*x).sum()", "(call (. (* w x) sum))"),
        ("x.T", "(. x T)"),
        ("model.0.weight", "(. (. model 0) weight)"),
        ("model.10.bias.grad", "(. (. (. model 10) bias) grad)"),
        ("f(x).0", "(. (call f x) 0)"),
        ("m[1].2", "(. (index m 1) 2)"),
    ],
)
def test_atoms_and_postfix(source: str, expected: str) -> None:
    assert dump(parse(source).body[0].expr) == expected  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "source, expected",
    [
        ("a + b * c", "(+ a (* b c))"),
        ("a - b - c", "(- (- a b) c)"),
        ("a / b // c % d @ e", "(@ (% (// (/ a b) c) d) e)"),
        ("-x**2", "(- (** x 2))"),
        ("2**-1", "(** 2 (- 1))"),
        ("2**3**2", "(** 2 (** 3 2))"),
        ("-a * b", "(* (- a) b)"),
        ("- -a", "(- (- a))"),
        ("+a", "(+ a)"),
        ("a @ b.T", "(@ a (. b T))"),
        ("a == b", "(== a b)"),
        ("a != b + 1", "(!= a (+ b 1))"),
        ("a <= b", "(<= a b)"),
        ("a < b < c", "(and (< a b) (< b c))"),
        ("a < b <= c > d", "(and (and (< a b) (<= b c)) (> c d))"),
        ("not a == b", "(not (== a b))"),
        ("a and b or c", "(or (and a b) c)"),
        ("a or b and c", "(or a (and b c))"),
        ("a or b or c", "(or (or a b) c)"),
        ("not not a", "(not (not a))"),
        ("g -> g * 2", "(lambda (g) (* g 2))"),
        ("(g) -> g * 2", "(lambda (g) (* g 2))"),
        ("(a, b) -> a + b", "(lambda (a b) (+ a b))"),
        ("() -> 1", "(lambda () 1)"),
        ("lambda g: g * 2", "(lambda (g) (* g 2))"),
        ("lambda a, b: a + b", "(lambda (a b) (+ a b))"),
        ("lambda: 1", "(lambda () 1)"),
        ("g -> h -> g", "(lambda (g) (lambda (h) g))"),
        ("g -> a or b", "(lambda (g) (or a b))"),
        ("f(g -> g * 2, 1)", "(call f (lambda (g) (* g 2)) 1)"),
        # Python's bitwise layers: | loosest, then ^, then &, all tighter than comparisons
        ("a | b ^ c & d", "(| a (^ b (& c d)))"),
        ("a & b + c", "(& a (+ b c))"),
        ("a > 0 & b", "(> a (& 0 b))"),
        ("(a > 0) & (b < 1) | c", "(| (& (> a 0) (< b 1)) c)"),
        ("~a & ~-b", "(& (~ a) (~ (- b)))"),
        ("~x ** 2", "(~ (** x 2))"),
        ("a in b", "(in a b)"),
        ("a not in b | c", "(not in a (| b c))"),
        ("a is None", "(is a None)"),
        ("a is not b == c", "(and (is not a b) (== b c))"),
        ("not a in b", "(not (in a b))"),
    ],
)
def test_operators_and_precedence(source: str, expected: str) -> None:
    assert dump(parse(source).body[0].expr) == expected  # type: ignore[attr-defined]


def test_literal_values() -> None:
    def value(source: str) -> Any:
        return parse(source).body[0].expr  # type: ignore[attr-defined]

    assert value("2") == ast.Number(Pos.at(1, 1), 2, "2")
    assert isinstance(value("2").value, int)
    assert value("2.").value == 2.0 and isinstance(value("2.").value, float)
    assert value("1_000").value == 1000
    assert value("1e-3").value == 0.001
    assert value(r'"tab\there"').value == "tab\there"
    assert value(r'"C:\dir"').value == "C:\\dir"  # unknown escapes stay as written
    assert value("'say \"hi\"'").value == 'say "hi"'


# ---------------------------------------------------------------------------------------------
# Positions and statement sources
# ---------------------------------------------------------------------------------------------


def test_positions_are_one_based_and_inclusive() -> None:
    program = parse("a = 1\nc = a * b")
    assign = program.body[1]
    assert isinstance(assign, ast.Assign)
    assert assign.pos == Pos(2, 1, 2, 9)
    assert assign.target.pos == Pos(2, 1, 2, 1)
    assert assign.value.pos == Pos(2, 5, 2, 9)
    assert isinstance(assign.value, ast.BinOp)
    assert assign.value.right.pos == Pos(2, 9, 2, 9)


def test_positions_of_postfix_and_parenthesised_expressions() -> None:
    expr = parse("y = (a + b).sum(dim=0)").body[0].value  # type: ignore[attr-defined]
    assert isinstance(expr, ast.Call)
    assert expr.pos == Pos(1, 5, 1, 22)
    assert expr.func.pos == Pos(1, 5, 1, 15)  # the attribute starts at the `(`
    assert expr.kwargs[0].pos == Pos(1, 17, 1, 21)
    index = parse("x[1:2, ...]").body[0].expr  # type: ignore[attr-defined]
    assert index.pos == Pos(1, 1, 1, 11)
    assert index.items[0].pos == Pos(1, 3, 1, 5)
    assert index.items[1].pos == Pos(1, 8, 1, 10)
    lam = parse("f = (a, b) -> a").body[0].value  # type: ignore[attr-defined]
    assert lam.pos == Pos(1, 5, 1, 15)


def test_statement_sources() -> None:
    program = parse("a = 1; b = 2\n  print(a,\n        b)  # both\nrepeat 2 {\n  a += 1\n}  ")
    assert [stmt.source for stmt in program.body] == [
        "a = 1",
        "b = 2",
        "print(a,\n        b)",
        "repeat 2 {\n  a += 1\n}",
    ]
    repeat = program.body[3]
    assert isinstance(repeat, ast.Repeat)
    assert repeat.pos == Pos(4, 1, 6, 1)
    assert repeat.body[0].source == "a += 1"
    assert repeat.body[0].pos == Pos(5, 3, 5, 8)
    one_line = parse("no_grad { e = a * 2; f = e }").body[0]
    assert isinstance(one_line, ast.GradMode)
    assert one_line.source == "no_grad { e = a * 2; f = e }"
    assert [s.source for s in one_line.body] == ["e = a * 2", "f = e"]
    assert parse("with torch.no_grad() { }").body[0].source == "with torch.no_grad() { }"
    assert parse("backward d retain").body[0].source == "backward d retain"
    assert parse('graph d -o "d.svg"').body[0].source == 'graph d -o "d.svg"'
    assert parse("print").body[0].source == "print"


def test_every_node_has_a_position_inside_the_source() -> None:
    source = (
        "seed 1\na = tensor([[1., 2.]], requires_grad=True)\nb = a[:, ::2] ** -1\n"
        "h = a.register_hook((g) -> g * 2)\nno_grad { c = -a.sum(dim=0) }\n"
        "assert not (b < 2 < 3), 'x'\nprint a, b\n"
    )
    program = parse(source)
    lines = program.source.split("\n")
    for node in walk(program):
        if isinstance(node, (ast.Program, Pos)):
            continue
        pos = node.pos  # type: ignore[attr-defined]
        assert 1 <= pos.line <= pos.end_line <= len(lines)
        assert 1 <= pos.column <= len(lines[pos.line - 1])
        assert 1 <= pos.end_column <= len(lines[pos.end_line - 1])
    assert_plain_tree(program)


def test_equality_ignores_positions() -> None:
    assert parse("x = a+b").body == parse("x   =   a + b").body
    assert parse("x = a+b").body != parse("x = a-b").body


# ---------------------------------------------------------------------------------------------
# Syntax errors: message, position and the formatted report
# ---------------------------------------------------------------------------------------------


def test_spec_example_error() -> None:
    source = "a = tensor(2.0, grad)\nc = a * * b\n"
    err = syntax_error(source)
    assert err.message == "unexpected '*', expected an expression"
    assert err.pos == Pos(2, 9, 2, 9)
    assert format_error(err, source, "path.grad") == (
        "path.grad:2:9: SyntaxError: unexpected '*', expected an expression\n"
        "    c = a * * b\n"
        "            ^"
    )


@pytest.mark.parametrize(
    "source, message, line, column",
    [
        ("a == = b", "unexpected '=', expected an expression", 1, 6),
        ("x = = 3", "unexpected '=', expected an expression", 1, 5),
        ("x = $", "unexpected character '$'", 1, 5),
        ("x = `y`", "unexpected character '`'", 1, 5),
        ("a \\ b", "unexpected character '\\'", 1, 3),
        ("x = \x00", "unexpected character '\\x00'", 1, 5),
        ('print "abc', "unterminated string", 1, 7),
        ("x = 'abc\ny = 1", "unterminated string", 1, 5),
        ("x = 1 +\ny = 2", "unexpected end of line, expected an expression", 1, 8),
        ("x = a *   # note\ny = 2", "unexpected end of line, expected an expression", 1, 8),
        ("repeat { x }", "unexpected '{', expected a repeat count", 1, 8),
        ("repeat 3\n{ x }", "unexpected end of line, expected '{'", 1, 9),
        ("}", "unmatched '}'", 1, 1),
        ("a = 1\n)", "unmatched ')'", 2, 1),
        ("f(]", "closing ']' does not match '('", 1, 3),
        ("no_grad { f(a }", "closing '}' does not match '('", 1, 15),
        ("f(a b)", "unexpected 'b', expected ',' or ')'", 1, 5),
        ("x = [1 2]", "unexpected '2', expected ',' or ']'", 1, 8),
        ("a b", "unexpected 'b', expected a newline or ';'", 1, 3),
        ("x = 1 2", "unexpected '2', expected a newline or ';'", 1, 7),
        ("no_grad { a b }", "unexpected 'b', expected a newline, ';' or '}'", 1, 13),
        ("x = (1, 2\ny = 3", "unexpected 'y', expected ',' or ')'", 2, 1),
        ("with torch.no_grad():", "unexpected ':', expected '{'", 1, 21),
        ("x .1", "unexpected '.1', expected a newline or ';'", 1, 3),
        ("x.1e5", "unexpected '.1e5', expected a newline or ';'", 1, 2),
        ("x.(", "unexpected '(', expected a name", 1, 3),
        ("lambda x x", "unexpected 'x', expected ',' or ':'", 1, 10),
        ("a = b = 1", "unexpected '=', expected a newline or ';'", 1, 7),
        ("print (a) + 1", "unexpected '+', expected a newline or ';'", 1, 11),
        ("backward d foo", "unexpected 'foo', expected 'retain' or 'create_graph'", 1, 12),
        (
            "backward d 3",
            "unexpected '3', expected 'retain', 'create_graph', a newline or ';'",
            1,
            12,
        ),
        ("x = 1 if y", "unexpected 'if', expected a newline or ';'", 1, 7),
        ("x //= 2", "unexpected '=', expected an expression", 1, 5),
        ('x = "a" "b"', "unexpected string \"b\", expected a newline or ';'", 1, 9),
        ("device = = cpu", "unexpected '=', expected an expression", 1, 10),
        ("del 1", "del takes variable names", 1, 5),
        ("show a.grad", "show takes variable names", 1, 6),
        ("f() = 3", "cannot use a function call as the target of an assignment", 1, 1),
        ("1 = x", "cannot use a literal as the target of an assignment", 1, 1),
        ("a + b = c", "cannot use an expression as the target of an assignment", 1, 1),
        ("a, f() = c", "cannot use a function call as the target of an assignment", 1, 4),
        ("[a, b] = c", "cannot use a list as the target of an assignment", 1, 1),
        ("x = 1; 3 += 1", "cannot use a literal as the target of an augmented assignment", 1, 8),
        ("f(a=1, 2)", "positional argument follows keyword argument", 1, 8),
        ("f(a=1, a=2)", "keyword argument repeated: a", 1, 8),
        ("(a + 1) -> a", "lambda parameters must be names", 1, 1),
        ("(a, a) -> a", "duplicate parameter 'a' in lambda", 1, 5),
        (
            "foo() { x }",
            "only no_grad, enable_grad, set_grad_enabled(...), detect_anomaly and repeat N can "
            "open a block",
            1,
            1,
        ),
        (
            "with open('f') { }",
            "only no_grad, enable_grad, set_grad_enabled(...), detect_anomaly and repeat N can "
            "open a block",
            1,
            6,
        ),
        (
            "numpy.no_grad() { }",
            "only no_grad, enable_grad, set_grad_enabled(...), detect_anomaly and repeat N can "
            "open a block",
            1,
            1,
        ),
        ("no_grad(1) { }", "no_grad() takes no arguments", 1, 1),
        ("enable_grad(x=1) { }", "unexpected keyword argument 'x'", 1, 13),
        (
            "set_grad_enabled { }",
            "set_grad_enabled takes one argument: set_grad_enabled(false) { ... }",
            1,
            1,
        ),
        ("1" * 5000, "integer literal too large", 1, 1),
    ],
)
def test_syntax_errors(source: str, message: str, line: int, column: int) -> None:
    err = syntax_error(source)
    assert err.pos is not None
    assert (err.message, err.pos.line, err.pos.column) == (message, line, column)
    assert not isinstance(err, IncompleteInput)
    report = format_error(err, parse_source(source), "t.grad")
    assert report.startswith(f"t.grad:{line}:{column}: SyntaxError: {message}")


def parse_source(source: str) -> str:
    return source.replace("\r\n", "\n").lstrip("\ufeff")


def test_error_caret_spans_the_unexpected_token() -> None:
    err = syntax_error("x = a ** ** b")
    assert err.pos == Pos(1, 10, 1, 11)
    assert format_error(err, "x = a ** ** b").splitlines()[-1] == "             ^^"
    err = syntax_error('print "abc')
    assert format_error(err, 'print "abc').splitlines()[-1] == "          ^^^^"


def test_hints() -> None:
    assert syntax_error("with torch.no_grad():").hint == (
        "blocks use braces, not ':': no_grad { y = x * 2 }"
    )
    assert syntax_error("x = (1, 2\ny = 3").hint == "the '(' at line 1, column 5 is never closed"
    assert syntax_error("f(]").hint == "the '(' is at line 1, column 2"
    assert syntax_error("a b").hint is None


@pytest.mark.parametrize(
    "source, message, line, column",
    [
        ("x = 1 +", "unexpected end of input, expected an expression", 1, 8),
        ("x = 1 +\n\n# more\n", "unexpected end of input, expected an expression", 1, 8),
        ("f(a, b", "unexpected end of input, expected ')'", 1, 7),
        ("f(a,\n", "unexpected end of input, expected ')'", 1, 5),
        ("x = [1, 2", "unexpected end of input, expected ']'", 1, 10),
        ("x = (a +", "unexpected end of input, expected an expression", 1, 9),
        ("no_grad {", "unexpected end of input, expected '}'", 1, 10),
        ("no_grad {\n  e = 1\n", "unexpected end of input, expected '}'", 2, 8),
        ("repeat 3 {\n  no_grad {\n  }", "unexpected end of input, expected '}'", 3, 4),
        ("repeat", "unexpected end of input, expected a repeat count", 1, 7),
        ("repeat 3", "unexpected end of input, expected '{'", 1, 9),
        ("assert", "unexpected end of input, expected an expression", 1, 7),
        ("del", "unexpected end of input, expected a name", 1, 4),
        ("x.", "unexpected end of input, expected a name", 1, 3),
        ("graph d -o", "unexpected end of input, expected a file name", 1, 11),
        ("a, b =", "unexpected end of input, expected an expression", 1, 7),
        ("lambda", "unexpected end of input, expected a name or ':'", 1, 7),
        ("x = 1 + \\", "unexpected end of input after '\\'", 1, 9),
        ("x = 1 \\  ", "unexpected end of input after '\\'", 1, 7),
    ],
)
def test_incomplete_input(source: str, message: str, line: int, column: int) -> None:
    with pytest.raises(IncompleteInput) as info:
        parse(source)
    err = info.value
    assert isinstance(err, GradshError) and err.kind == "SyntaxError"
    assert err.pos is not None
    assert (err.message, err.pos.line, err.pos.column) == (message, line, column)


def test_incomplete_input_names_the_open_bracket() -> None:
    with pytest.raises(IncompleteInput) as info:
        parse("x = f(a,\n      b")
    assert info.value.hint == "the '(' at line 1, column 6 is never closed"


def test_shell_continuation_completes() -> None:
    # What the shell does: keep adding lines while the input is incomplete.
    lines = ["repeat 2 {", "  x = f(1,", "        2)", "}"]
    buffer = ""
    for i, line in enumerate(lines):
        buffer = f"{buffer}\n{line}" if buffer else line
        if i < len(lines) - 1:
            with pytest.raises(IncompleteInput):
                parse(buffer)
    assert p(buffer) == "(repeat 2 {(= x (call f 1 2))})"
    # A dangling operator needs a backslash to continue: newlines end statements.
    with pytest.raises(IncompleteInput):
        parse("x = 1 + \\")
    assert p("x = 1 + \\\n2") == "(= x (+ 1 2))"
    assert syntax_error("x = 1 +\n2").message == "unexpected end of line, expected an expression"


# ---------------------------------------------------------------------------------------------
# Deep and hostile input
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source, message",
    [
        ("(" * 10_000 + "x" + ")" * 10_000, "too many nested parentheses"),
        ("[" * 10_000 + "]" * 10_000, "too many nested parentheses"),
        ("x = " + "f(" * 5_000, "too many nested parentheses"),
        ("no_grad {" * 300 + "}" * 300, "too many nested parentheses"),
        ("-" * 20_000 + "x", f"too deeply nested (more than {MAX_DEPTH} levels)"),
        ("not " * 5_000 + "x", f"too deeply nested (more than {MAX_DEPTH} levels)"),
        ("+".join(["a"] * 5_000), f"too deeply nested (more than {MAX_DEPTH} levels)"),
        ("x" + ".a" * 5_000, f"too deeply nested (more than {MAX_DEPTH} levels)"),
        ("f" + "()" * 5_000, f"too deeply nested (more than {MAX_DEPTH} levels)"),
        ("**".join(["2"] * 5_000), f"too deeply nested (more than {MAX_DEPTH} levels)"),
        ("->".join(["x"] * 5_000), f"too deeply nested (more than {MAX_DEPTH} levels)"),
    ],
)
def test_deep_input_is_a_clean_syntax_error(source: str, message: str) -> None:
    assert syntax_error(source).message == message


def test_nesting_just_inside_the_limits_parses() -> None:
    assert p("(" * MAX_NESTING + "x" + ")" * MAX_NESTING) == "(expr x)"
    assert p("x = " + "-" * (MAX_DEPTH - 3) + "1").startswith("(= x (- (- ")
    assert p("[" * 50 + "]" * 50).startswith("(expr [[[")


def _depth(node: Any) -> int:
    deepest, pending = 0, [(node, 1)]
    while pending:
        node, depth = pending.pop()
        deepest = max(deepest, depth)
        for field in dataclasses.fields(node):
            value = getattr(node, field.name)
            items = value if isinstance(value, tuple) else (value,)
            pending.extend((item, depth + 1) for item in items
                           if isinstance(item, (ast.Expr, ast.Stmt, ast.Keyword)))
    return deepest


# (forms looser than a primary are parenthesised, so that any wrapping parses)
_WRAPS = ["-{}", "~{}", "(not {})", "{}.a", "{}[0]", "{}[1:2:3]", "f({})", "f(k={})", "[{}]",
          "({},)", "({}, 1)", "(g -> {})", "({} + 1)", "(1 * {})", "({} ** 2)", "(2 ** {})",
          "(a < {} < b)", "({} or b)", "({})", "[{}, {}]"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_WRAPS), max_size=30),
       st.sampled_from(["{}", "x = {}", "{},", "x = {},", "print 1, {}", "repeat 2 {{ y = {} }}"]))
def test_a_statement_is_at_most_two_levels_deeper_than_its_length(wraps: list[str],
                                                                   form: str) -> None:
    # parse() walks only statements long enough to reach MAX_DEPTH (see _check_depth)
    expr = "x"
    for wrap in wraps:
        expr = wrap.format(expr, expr)
        if len(expr) > 400:
            break
    (stmt,) = parse(form.format(expr)).body
    assert _depth(stmt) <= len(stmt.source) + 2


def test_many_statements() -> None:
    program = parse("x = x + 1\n" * 5_000)
    assert len(program.body) == 5_000
    assert program.body[-1].pos.line == 5_000


_TOKENS = [
    "a", "x", "print", "show", "graph", "backward", "seed", "device", "dtype", "del", "repeat",
    "with", "no_grad", "retain", "create_graph", "-o", "lambda", "not", "and", "or", "None",
    "true", "cuda:0", "1", "2.", ".5", "1e-3", '"s"', "'t", "(", ")", "[", "]", "{", "}", ",",
    ":", ";", ".", "...", "=", "+=", "==", "<", "->", "+", "-", "*", "**", "/", "//", "@", "%",
    "\n", " ", "#c\n", "\\\n", "$", "\t", "\r\n",
]  # fmt: skip


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=30))
def test_token_soup_only_raises_gradsh_errors(tokens: list[str]) -> None:
    _parse_or_syntax_error(" ".join(tokens))
    _parse_or_syntax_error("".join(tokens))


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_random_text_only_raises_gradsh_errors(text: str) -> None:
    _parse_or_syntax_error(text)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=60))
def test_random_bytes_only_raise_gradsh_errors(data: bytes) -> None:
    _parse_or_syntax_error(data.decode("utf-8", errors="surrogateescape"))


def _parse_or_syntax_error(source: str) -> None:
    try:
        program = parse(source)
    except GradshError as err:
        assert err.kind == "SyntaxError"
        assert err.pos is not None
        normalised = source.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        assert 1 <= err.pos.line <= normalised.count("\n") + 1
        format_error(err, normalised)
        return
    for stmt in program.body:
        assert stmt.source and stmt.source == stmt.source.strip()
    assert_plain_tree(program)


_PLAIN = (str, int, float, bool, type(None), Pos)


def assert_plain_tree(program: ast.Program) -> None:
    """Only gradsh nodes and plain values: no lark Tree or Token (a str subclass) slipped in."""
    for node in walk(program):
        assert type(node).__module__ in ("gradsh.ast", "gradsh.errors"), type(node)
        for field in dataclasses.fields(node):
            value = getattr(node, field.name)
            for item in value if isinstance(value, tuple) else (value,):
                assert dataclasses.is_dataclass(item) or type(item) in _PLAIN, (field, item)


# ---------------------------------------------------------------------------------------------
# The LALR table cache
# ---------------------------------------------------------------------------------------------

_REPO = Path(__file__).resolve().parents[1]


def _parse_in_subprocess(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = "from gradsh.parser import parse; print(len(parse('a = 1; b = 2').body))"
    return subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True,
        cwd=_REPO, timeout=60,
    )  # fmt: skip


def test_cache_is_written_and_reused(tmp_path: Path) -> None:
    first = _parse_in_subprocess({"GRADSH_CACHE_DIR": str(tmp_path)})
    assert (first.returncode, first.stdout, first.stderr) == (0, "2\n", "")
    (cache,) = tmp_path.iterdir()
    written = cache.stat().st_mtime_ns
    second = _parse_in_subprocess({"GRADSH_CACHE_DIR": str(tmp_path)})
    assert (second.returncode, second.stdout, second.stderr) == (0, "2\n", "")
    assert cache.stat().st_mtime_ns == written


def test_corrupt_cache_is_rebuilt(tmp_path: Path) -> None:
    _parse_in_subprocess({"GRADSH_CACHE_DIR": str(tmp_path)})
    (cache,) = tmp_path.iterdir()
    cache.write_bytes(b"not a pickle\n\x00\x01")
    result = _parse_in_subprocess({"GRADSH_CACHE_DIR": str(tmp_path)})
    assert (result.returncode, result.stdout, result.stderr) == (0, "2\n", "")


def test_no_usable_cache_directory_still_parses(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    unusable = str(blocker / "sub")  # a directory cannot be made under a file
    env = {"GRADSH_CACHE_DIR": unusable, "XDG_CACHE_HOME": unusable, "HOME": unusable}
    result = _parse_in_subprocess(env)
    assert (result.returncode, result.stdout, result.stderr) == (0, "2\n", "")


def _parsed_both_ways(source: str) -> list[Any]:
    """The body (or the error) from gradsh.lalr's loops and from lark's own parse."""
    from gradsh import parser as module

    results = []
    module._get_parser()
    fast = module._TABLES
    for tables in (fast, None):
        module._TABLES = tables
        try:
            results.append(repr(parse(source).body))
        except GradshError as err:
            results.append((type(err).__name__, err.kind, err.message, err.pos, err.hint))
        finally:
            module._TABLES = fast
    return results


def test_the_fast_loops_parse_every_script_as_lark_does() -> None:
    root = Path(__file__).resolve().parent.parent
    scripts = sorted(root.glob("scripts/*.grad")) + sorted(root.glob("tests/**/*.grad"))
    assert len(scripts) > 50
    for script in scripts:
        fast, lark = _parsed_both_ways(script.read_text())
        assert fast == lark, script


_SOUP = ["x", "y", "=", "+", "-", "*", "**", "(", ")", "[", "]", "{", "}", ",", ";", "\n", ".",
         ":", "1", "2.", "'s'", '"t"', "print", "repeat", "no_grad", "->", "lambda", "not", "and",
         "<", "==", "@", "#c", "\\\n", "cuda:0", "...", "$", "?", " ", "del", "graph", "-o"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_SOUP), max_size=14))
def test_the_fast_loops_parse_token_soup_as_lark_does(tokens: list[str]) -> None:
    fast, lark = _parsed_both_ways(" ".join(tokens))
    assert fast == lark
