"""The one table of gradsh's builtins: what each is, its signature, its autograd effect, an example.

The interpreter resolves names and whitelists Tensor methods and attributes from this table; the
shell's `help` and completion and the PyTorch exporter read it too, so nothing can drift.
`target` names the implementation: a function of the `home` module (gradsh.engine.ops, or
gradsh.torch.optim for the optimizer), or a method on Tensor.
"""

from __future__ import annotations

from gradsh.builtin_entry import (
    _CREATION,
    _ELEMENTWISE,
    _OPT,
    _VIEW,
    Builtin,
    _attr,
    _fn,
    _member,
    _stmt,
)
from gradsh.builtins_nn import NN

BUILTINS: tuple[Builtin, ...] = (
    # -- statements --------------------------------------------------------------------------
    _stmt("print", "print a, b   |   print(a, b)", "Print values as Python's print does.",
          "print a.grad, c.grad"),
    _stmt("show", "show   |   show a, c", "Show the variable table now (all or some rows).",
          "show a, c"),
    _stmt("graph", 'graph x   |   graph x -o "x.svg"', "Show the backward graph of x.", "graph d"),
    _stmt("explain", "explain x", "Explain why x is or is not a leaf and what backward leaves in "
          "x.grad.", "explain c"),
    _stmt("assert", 'assert cond [, "message"]', "Fail unless cond holds; `a == b` on tensors "
          "compares element-wise with allclose.", "assert a.grad == 4800"),
    _stmt("backward", "backward e [retain] [create_graph]",
          "e.backward(retain_graph=..., create_graph=...).", "backward d retain"),
    _stmt("seed", "seed N", "torch.manual_seed(N): the next random numbers are PyTorch's.",
          "seed 20200910"),
    _stmt("device", "device cpu|cuda", "The default device for new tensors.", "device cuda"),
    _stmt("dtype", "dtype float32|float64", "The default floating dtype (torch.set_default_dtype).",
          "dtype float64"),
    _stmt("del", "del x, y", "Forget variables.", "del c"),
    _stmt("no_grad", "no_grad { ... }", "with torch.no_grad(): results do not require grad.",
          "no_grad { w -= 0.1 * w.grad }"),
    _stmt("enable_grad", "enable_grad { ... }", "with torch.enable_grad().",
          "no_grad { enable_grad { y = x * 2 } }"),
    _stmt("set_grad_enabled", "set_grad_enabled(b) { ... }", "with torch.set_grad_enabled(b).",
          "set_grad_enabled(false) { y = x * 2 }"),
    _stmt("detect_anomaly", "detect_anomaly { ... }   |   detect_anomaly(check_nan=b) { ... }",
          "with torch.autograd.detect_anomaly(): nodes made inside remember their statement; a "
          "backward through them that fails says where, one that returns NaN raises.",
          "detect_anomaly { y = x / x }"),
    _stmt("repeat", "repeat N { ... }", "Run the block N times (a for loop).",
          "repeat 3 { loss = (w*x).sum(); loss.backward() }"),
    # -- creation ------------------------------------------------------------------------------
    _fn("tensor", "tensor(data, dtype=None, device=None, requires_grad=False)",
        "A tensor from data; ints give int64, floats float32.", _CREATION,
        "a = tensor(2.0, grad)", method=False, grad_flag=True),
    _fn("Tensor", "Tensor(data) | Tensor(*sizes)", "torch.Tensor: always float32.", _CREATION,
        "x = Tensor([2, 3])", method=False, target="Tensor_", grad_flag=True),
    _fn("rand", "rand(*size, dtype=None, device=None, requires_grad=False)",
        "Uniform [0, 1) numbers, PyTorch's exact stream after `seed`.", _CREATION,
        "a = rand(10, requires_grad=True)", method=False, grad_flag=True),
    _fn("randn", "randn(*size, dtype=None, device=None, requires_grad=False)",
        "Standard normal numbers, PyTorch's exact stream after `seed`.", _CREATION,
        "data_in = randn(3, 5, grad)", method=False, grad_flag=True),
    _fn("randint", "randint(low=0, high, size, dtype=int64)", "Random integers in [low, high).",
        _CREATION, "i = randint(0, 10, (3,))", method=False),
    _fn("zeros", "zeros(*size, dtype=None, device=None, requires_grad=False)", "Zeros.", _CREATION,
        "z = zeros(2, 3)", method=False, grad_flag=True),
    _fn("ones", "ones(*size, dtype=None, device=None, requires_grad=False)", "Ones.", _CREATION,
        "o = ones(3, grad)", method=False, grad_flag=True),
    _fn("full", "full(size, fill_value, dtype=None, requires_grad=False)", "A constant tensor.",
        _CREATION, "f = full((2, 2), 7.)", method=False, grad_flag=True),
    _fn("empty", "empty(*size, dtype=None, requires_grad=False)",
        "An uninitialised tensor (gradsh fills it with zeros).", _CREATION, "e = empty(3)",
        method=False, grad_flag=True),
    _fn("arange", "arange(start=0, end, step=1, dtype=None, requires_grad=False)",
        "Evenly spaced values; int arguments give int64.", _CREATION,
        "x = arange(10., grad).reshape(10, 1)", method=False, grad_flag=True),
    _fn("linspace", "linspace(start, end, steps, dtype=None, requires_grad=False)",
        "`steps` values from start to end.", _CREATION, "x = linspace(0, 1, 5)", method=False,
        grad_flag=True),
    _fn("eye", "eye(n, m=None, dtype=None, requires_grad=False)", "The identity matrix.",
        _CREATION, "i = eye(3)", method=False, grad_flag=True),
    _fn("zeros_like", "zeros_like(x, dtype=None, requires_grad=False)", "Zeros shaped like x.",
        _CREATION, "z = zeros_like(x)", method=False, grad_flag=True),
    _fn("ones_like", "ones_like(x, dtype=None, requires_grad=False)", "Ones shaped like x.",
        _CREATION, "o = ones_like(x)", method=False, grad_flag=True),
    _fn("full_like", "full_like(x, fill_value)", "A constant shaped like x.", _CREATION,
        "f = full_like(x, 2.)", method=False, grad_flag=True),
    _fn("rand_like", "rand_like(x)", "Uniform numbers shaped like x.", _CREATION,
        "r = rand_like(x)", method=False, grad_flag=True),
    _fn("randn_like", "randn_like(x)", "Normal numbers shaped like x.", _CREATION,
        "r = randn_like(x)", method=False, grad_flag=True),
    # -- element-wise --------------------------------------------------------------------------
    _fn("add", "add(a, b, alpha=1)", "a + alpha * b.", _ELEMENTWISE.format("AddBackward0"),
        "c = add(a, b)"),
    _fn("sub", "sub(a, b, alpha=1)", "a - alpha * b.", _ELEMENTWISE.format("SubBackward0"),
        "c = sub(a, b)"),
    _fn("mul", "mul(a, b)", "a * b.", _ELEMENTWISE.format("MulBackward0"), "c = mul(a, 5)"),
    _fn("div", "div(a, b)", "a / b (true division).", _ELEMENTWISE.format("DivBackward0"),
        "c = div(a, 2)"),
    _fn("exp", "exp(x)", "e ** x.", _ELEMENTWISE.format("ExpBackward0"), "y = x.exp()"),
    _fn("log", "log(x)", "Natural logarithm.", _ELEMENTWISE.format("LogBackward0"),
        "y = x.log()"),
    _fn("sin", "sin(x)", "Sine.", _ELEMENTWISE.format("SinBackward0"), "y = sin(x)"),
    _fn("cos", "cos(x)", "Cosine.", _ELEMENTWISE.format("CosBackward0"), "y = cos(x)"),
    _fn("tanh", "tanh(x)", "Hyperbolic tangent.", _ELEMENTWISE.format("TanhBackward0"),
        "y = x.tanh()"),
    _fn("sigmoid", "sigmoid(x)", "1 / (1 + e ** -x).", _ELEMENTWISE.format("SigmoidBackward0"),
        "y = x.sigmoid()"),
    _fn("relu", "relu(x, inplace=False)", "max(x, 0); gradient 0 at 0; with inplace=True, "
        "in x itself (relu_).", _ELEMENTWISE.format("ReluBackward0"), "y = F.relu(x)",
        target="functional_relu", torch="torch.nn.functional.relu"),
    _fn("sqrt", "sqrt(x)", "Square root; infinite gradient at 0.",
        _ELEMENTWISE.format("SqrtBackward0"), "y = x.sqrt()"),
    _fn("abs", "abs(x)", "Absolute value; gradient 0 at 0 (Python's abs on a number).",
        _ELEMENTWISE.format("AbsBackward0"), "y = x.abs()", python="fallback"),
    _fn("square", "square(x)", "x ** 2.", _ELEMENTWISE.format("PowBackward0"), "y = x.square()"),
    _fn("pow", "pow(x, exponent)", "x ** exponent (PowBackward0/1/2 by operand kinds).",
        _ELEMENTWISE.format("PowBackward0"), "y = x.pow(2)"),
    _fn("neg", "neg(x)", "-x.", _ELEMENTWISE.format("NegBackward0"), "y = x.neg()"),
    _fn("reciprocal", "reciprocal(x)", "1 / x.", _ELEMENTWISE.format("ReciprocalBackward0"),
        "y = x.reciprocal()"),
    _fn("clamp", "clamp(x, min=None, max=None)", "Limit values; gradient passes inside [min, max].",
        _ELEMENTWISE.format("ClampBackward1"), "y = x.clamp(min=0)"),
    _fn("maximum", "maximum(a, b)", "Element-wise max; ties split the gradient.",
        _ELEMENTWISE.format("MaximumBackward0"), "y = maximum(a, b)"),
    _fn("minimum", "minimum(a, b)", "Element-wise min; ties split the gradient.",
        _ELEMENTWISE.format("MinimumBackward0"), "y = minimum(a, b)"),
    _fn("where", "where(cond, a, b)", "a where cond else b.", _ELEMENTWISE.format("WhereBackward0"),
        "y = where(x > 0, x, 0.)"),
    # -- reductions ----------------------------------------------------------------------------
    _fn("sum", "sum(x, dim=None, keepdim=False)", "Sum of elements; sum of a list (of tensors, "
        "numbers) is Python's sum.",
        "grad_fn SumBackward0 (whole tensor) or SumBackward1 (dim=); Python's sum of tensors: "
        "AddBackward0", "loss = (w * x).sum()", python="fallback"),
    _fn("mean", "mean(x, dim=None, keepdim=False)", "Mean of elements (floating tensors only).",
        "grad_fn MeanBackward0 / MeanBackward1", "m = data_in.mean()"),
    _fn("max", "max(x) | max(x, dim, keepdim=False) | max(a, b)",
        "Largest element; with dim a (values, indices) pair; of numbers or a list, Python's max.",
        "grad_fn MaxBackward1 (whole tensor; ties share the gradient) / MaxBackward0 (dim=)",
        "v = x.max()", python="fallback"),
    _fn("min", "min(x) | min(x, dim, keepdim=False) | min(a, b)",
        "Smallest element; with dim a (values, indices) pair; of numbers or a list, Python's min.",
        "grad_fn MinBackward1 / MinBackward0", "v = x.min()", python="fallback"),
    _fn("prod", "prod(x, dim=None, keepdim=False)", "Product of elements.",
        "grad_fn ProdBackward0 / ProdBackward1", "p = x.prod()"),
    _fn("norm", "norm(x, p=2, dim=None, keepdim=False)", "Vector norm.",
        "grad_fn LinalgVectorNormBackward0", "n = x.norm()"),
    _fn("var", "var(x, dim=None, unbiased=True, keepdim=False)", "Variance (Bessel-corrected).",
        "grad_fn VarBackward0", "v = x.var()"),
    _fn("std", "std(x, dim=None, unbiased=True, keepdim=False)", "Standard deviation.",
        "grad_fn StdBackward0", "s = x.std()"),
    _fn("argmax", "argmax(x, dim=None, keepdim=False)", "Index of the largest element.",
        "an int64 tensor, never requires grad", "i = x.argmax()"),
    _fn("argmin", "argmin(x, dim=None, keepdim=False)", "Index of the smallest element.",
        "an int64 tensor, never requires grad", "i = x.argmin()"),
    # -- shape ---------------------------------------------------------------------------------
    _fn("reshape", "reshape(x, *shape)", "Same data, new shape (a view when possible).",
        _VIEW.format("ViewBackward0 (UnsafeViewBackward0 after a copy)"),
        "x = arange(10., grad).reshape(10, 1)"),
    _fn("view", "x.view(*shape)", "A view with a new shape (needs compatible strides).",
        _VIEW.format("ViewBackward0"), "y = x.view(2, 5)", function=False),
    _fn("t", "t(x)", "Transpose of a matrix.", _VIEW.format("TBackward0"), "y = w.t()"),
    _fn("transpose", "transpose(x, dim0, dim1)", "Swap two dimensions.",
        _VIEW.format("TransposeBackward0"), "y = x.transpose(0, 1)"),
    _fn("permute", "permute(x, *dims)", "Reorder dimensions.", _VIEW.format("PermuteBackward0"),
        "y = x.permute(1, 0)"),
    _fn("flatten", "flatten(x, start_dim=0, end_dim=-1)", "Merge dimensions.",
        _VIEW.format("ViewBackward0"), "y = x.flatten()"),
    _fn("unsqueeze", "unsqueeze(x, dim)", "Insert a dimension of size 1.",
        _VIEW.format("UnsqueezeBackward0"), "y = x.unsqueeze(0)"),
    _fn("squeeze", "squeeze(x, dim=None)", "Remove dimensions of size 1.",
        _VIEW.format("SqueezeBackward0 / SqueezeBackward1"), "y = x.squeeze()"),
    _fn("expand", "x.expand(*sizes)", "Broadcast to a larger shape without copying.",
        _VIEW.format("ExpandBackward0"), "y = x.expand(3, 4)", function=False),
    _fn("expand_as", "x.expand_as(other)", "expand to other's shape.",
        _VIEW.format("ExpandBackward0"), "y = x.expand_as(z)", function=False),
    _fn("cat", "cat(tensors, dim=0)", "Concatenate along a dimension.", "grad_fn CatBackward0",
        "y = cat([a, b])", method=False),
    _fn("stack", "stack(tensors, dim=0)", "Stack along a new dimension.",
        "grad_fn StackBackward0", "y = stack([a, b])", method=False),
    _fn("contiguous", "x.contiguous()", "x itself if contiguous, else a copy.",
        "grad_fn CloneBackward0 when it copies", "y = x.t().contiguous()", function=False),
    # -- linear algebra ------------------------------------------------------------------------
    _fn("matmul", "matmul(a, b)   |   a @ b", "Matrix product with PyTorch's dimension rules.",
        "grad_fn MmBackward0 / MvBackward0 / DotBackward0 ...", "y = w @ x"),
    _fn("mm", "mm(a, b)", "Matrix-matrix product.", "grad_fn MmBackward0", "y = mm(a, b)"),
    _fn("mv", "mv(a, v)", "Matrix-vector product.", "grad_fn MvBackward0", "y = mv(a, v)"),
    _fn("dot", "dot(a, b)", "Dot product of two vectors.", "grad_fn DotBackward0",
        "y = dot(a, b)"),
    # -- nn ------------------------------------------------------------------------------------
    _fn("softmax", "softmax(x, dim)", "exp(x) / exp(x).sum(dim).", "grad_fn SoftmaxBackward0",
        "p = F.softmax(x, dim=0)", torch="torch.nn.functional.softmax"),
    _fn("log_softmax", "log_softmax(x, dim)", "log(softmax(x, dim)), computed stably.",
        "grad_fn LogSoftmaxBackward0", "lp = F.log_softmax(x, dim=0)",
        torch="torch.nn.functional.log_softmax"),
    _fn("mse_loss", "mse_loss(input, target, reduction='mean')", "Mean squared error.",
        "grad_fn MseLossBackward0", "loss = F.mse_loss(y, t)", method=False,
        torch="torch.nn.functional.mse_loss"),
    # -- casts and devices ---------------------------------------------------------------------
    _fn("float", "x.float()   |   float(x)", "Cast to float32; float(x) is Python's float of a "
        "one-element tensor or a number (the bare name `float` is torch.float).",
        "grad_fn ToCopyBackward0 (if it converts)", "y = x.float()", python="only", torch="float"),
    _fn("double", "x.double()", "Cast to float64.", "grad_fn ToCopyBackward0", "y = x.double()",
        function=False),
    _fn("long", "x.long()", "Cast to int64 (never requires grad).", "", "i = x.long()",
        function=False),
    _fn("int", "x.int()   |   int(x)", "Cast to int32; int(x) is Python's int of a one-element "
        "tensor or a number (the bare name `int` is torch.int).", "", "i = x.int()",
        python="only", torch="int"),
    _fn("bool", "x.bool()   |   bool(x)", "Cast to bool; bool(x) is Python's truth of a "
        "one-element tensor or a value (the bare name `bool` is torch.bool).", "",
        "m = x.bool()", python="only", torch="bool"),
    _fn("to", "x.to(dtype | device | tensor)", "Convert dtype and/or device.",
        "grad_fn ToCopyBackward0 when it converts", "y = x.to(float64)", function=False),
    _fn("cuda", "x.cuda()", "Copy to cuda:0.",
        "grad_fn ToCopyBackward0: rand(10, grad).cuda() is not a leaf", "b = rand(10).cuda()",
        function=False),
    _fn("cpu", "x.cpu()", "Copy to the CPU.", "grad_fn ToCopyBackward0 when it copies",
        "y = x.cpu()", function=False),
    # -- autograd ------------------------------------------------------------------------------
    _fn("backward", "x.backward(gradient=None, retain_graph=None, create_graph=False)",
        "Backpropagate from x.", "fills .grad of leaves that require grad and of tensors that "
        "called retain_grad(); frees saved tensors unless retain_graph", "d.backward()",
        target="backward", torch="torch.autograd.backward"),
    _fn("grad", "grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, "
        "allow_unused=False)", "torch.autograd.grad: the gradients, without touching .grad.",
        "returns a tuple; with create_graph the results require grad", "g = grad(c, a)[0]",
        method=False, torch="torch.autograd.grad"),
    _fn("retain_grad", "x.retain_grad()", "Keep x.grad for a non-leaf (call before backward).",
        "the next backward fills x.grad", "c.retain_grad()", function=False),
    _fn("detach", "x.detach()", "A new leaf on the same storage (shares the version counter).",
        "requires_grad False, grad_fn None", "y = x.detach()"),
    _fn("Variable", "Variable(data, requires_grad=False)",
        "torch.autograd.Variable (deprecated): a new leaf sharing data's storage.", _CREATION,
        "x = Variable(Tensor([2, 3]), requires_grad=True)", method=False,
        torch="torch.autograd.Variable"),
    _fn("detach_", "x.detach_()", "Detach x itself from the graph.",
        "x becomes a leaf with requires_grad False", "y.detach_()", function=False),
    _fn("requires_grad_", "x.requires_grad_(requires_grad=True)", "Set requires_grad on a leaf.",
        "x starts (or stops) requiring grad; still a leaf", "e = rand(10).cuda().requires_grad_()",
        function=False),
    _fn("register_hook", "x.register_hook(fn)", "Call fn(grad) when x's gradient is computed; a "
        "returned tensor replaces the gradient.", "", "x.register_hook(g -> g * 2)",
        function=False),
    _fn("clone", "clone(x)", "A copy.", "grad_fn CloneBackward0", "y = x.clone()"),
    _fn("item", "x.item()", "The Python number in a one-element tensor.", "", "v = loss.item()",
        function=False),
    _fn("tolist", "x.tolist()", "Nested Python lists.", "", "l = x.tolist()", function=False),
    _fn("numpy", "x.numpy()", "A NumPy array on x's memory (x must not require grad); it prints "
        "as NumPy prints.", "", "a = x.detach().numpy()", function=False),
    _fn("numel", "numel(x)", "Number of elements.", "", "n = x.numel()"),
    _fn("size", "x.size(dim=None)", "The shape (torch.Size) or one dimension.", "",
        "s = x.size()", function=False),
    _fn("dim", "x.dim()", "Number of dimensions.", "", "d = x.dim()", function=False),
    _fn("zero_", "x.zero_()", "Fill with zeros in place.", "in place: bumps x._version",
        "a.grad.zero_()", function=False),
    _fn("fill_", "x.fill_(value)", "Fill in place.", "in place: bumps x._version",
        "x.fill_(1.)", function=False),
    _fn("copy_", "x.copy_(src)", "Copy src into x in place.", "in place: bumps x._version",
        "x.copy_(y)", function=False),
    _fn("add_", "x.add_(other, alpha=1)", "In-place add.",
        "in place: bumps x._version; on a leaf that requires grad: error (outside no_grad)",
        "w.add_(1)", function=False),
    _fn("sub_", "x.sub_(other, alpha=1)", "In-place subtract.", "in place", "w.sub_(0.1)",
        function=False),
    _fn("mul_", "x.mul_(other)", "In-place multiply.", "in place", "y.mul_(2)", function=False),
    _fn("div_", "x.div_(other)", "In-place divide.", "in place", "y.div_(2)", function=False),
    # -- optimizer -----------------------------------------------------------------------------
    _fn("sgd", "sgd(params, lr, momentum=0, weight_decay=0)", "torch.optim.SGD.",
        "opt.step() updates leaves in place under no_grad; opt.zero_grad() sets grads to None",
        "opt = sgd([w, b], lr=0.1)", method=False, target="SGD", torch="torch.optim.SGD",
        home="optim"),
    _member("step", _OPT, "opt.step(closure=None)", "One update of every parameter that has a "
            "gradient, by PyTorch's formula.", "in place under no_grad: bumps each _version",
            "opt.step()"),
    _member("zero_grad", (*_OPT, "Module"), "opt.zero_grad(set_to_none=True)",
            "Reset the gradients of the optimizer's (or module's) parameters.",
            "grads become None (PyTorch 2's default), or zeros with set_to_none=False",
            "opt.zero_grad()"),
    _member("param_groups", _OPT, "opt.param_groups",
            "The parameter groups: a list of dicts holding `params` and the options.", "",
            'opt.param_groups[0]["lr"] = 0.01'),
    _member("state", _OPT, "opt.state", "Per-parameter state (SGD's momentum_buffer).", "",
            "print(opt.state)"),
    _member("defaults", _OPT, "opt.defaults", "The options new parameter groups start from.",
            "", 'print(opt.defaults["lr"])'),
    _fn("set_detect_anomaly", "set_detect_anomaly(mode, check_nan=True)",
        "Anomaly mode on or off from here on (the block form: detect_anomaly { ... }).",
        "while on, each node remembers the statement of its forward; a backward that fails says "
        "so, and one that returns NaN raises naming the node", "set_detect_anomaly(true)",
        method=False, torch="torch.autograd.set_detect_anomaly", home="autograd"),
    _fn("manual_seed", "manual_seed(n)", "The `seed` statement as a function.", "",
        "torch.manual_seed(0)", method=False),
    # -- more element-wise, comparisons and logic ------------------------------------------------
    *(
        _fn(name, f"{name}(x)", doc, _ELEMENTWISE.format(node), f"y = x.{name}()")
        for name, doc, node in (
            ("tan", "Tangent.", "TanBackward0"),
            ("log2", "Base-2 logarithm.", "Log2Backward0"),
            ("log10", "Base-10 logarithm.", "Log10Backward0"),
            ("rsqrt", "1 / sqrt(x).", "RsqrtBackward0"),
            ("sign", "-1, 0 or 1; gradient 0.", "SignBackward0"),
            ("sgn", "sign, also for complex numbers; gradient 0.", "SgnBackward0"),
            ("floor", "Round down; gradient 0.", "FloorBackward0"),
            ("ceil", "Round up; gradient 0.", "CeilBackward0"),
            ("trunc", "Round toward zero; gradient 0.", "TruncBackward0"),
            ("negative", "-x (alias of neg).", "NegBackward0"),
            ("absolute", "abs (alias).", "AbsBackward0"),
            ("positive", "x itself.", "none: returns x"),
        )
    ),
    _fn("round", "round(x, decimals=0)", "Round half to even; gradient 0 (Python's round on a "
        "number).", _ELEMENTWISE.format("RoundBackward0"), "y = x.round()", python="fallback"),
    _fn("clamp_min", "clamp_min(x, min)", "clamp with a lower bound only.",
        _ELEMENTWISE.format("ClampMinBackward0"), "y = x.clamp_min(0)"),
    _fn("clamp_max", "clamp_max(x, max)", "clamp with an upper bound only.",
        _ELEMENTWISE.format("ClampMaxBackward0"), "y = x.clamp_max(1)"),
    _fn("clip", "clip(x, min=None, max=None)", "clamp (alias).",
        _ELEMENTWISE.format("ClampBackward1"), "y = x.clip(0, 1)"),
    *(
        _fn(name, f"{name}(a, b)", doc, _ELEMENTWISE.format(node), f"y = {name}(a, b)")
        for name, doc, node in (
            ("subtract", "a - b (alias of sub).", "SubBackward0"),
            ("multiply", "a * b (alias of mul).", "MulBackward0"),
            ("divide", "a / b (alias of div; rounding_mode= too).", "DivBackward0"),
            ("true_divide", "a / b.", "DivBackward0"),
            ("floor_divide", "a // b (integers: ZeroDivisionError as PyTorch).",
             "none: not differentiable"),
            ("remainder", "a % b, Python's sign convention.", "RemainderBackward0"),
            ("fmod", "C's fmod: the sign of a.", "FmodBackward0"),
        )
    ),
    *(
        _fn(name, f"{name}(a, b)", doc, "a bool tensor, never requires grad", f"m = {name}(a, b)")
        for name, doc in (
            ("eq", "a == b element-wise."), ("ne", "a != b element-wise."),
            ("lt", "a < b element-wise."), ("le", "a <= b element-wise."),
            ("gt", "a > b element-wise."), ("ge", "a >= b element-wise."),
            ("greater", "a > b (alias of gt)."), ("greater_equal", "a >= b (alias of ge)."),
            ("less", "a < b (alias of lt)."), ("less_equal", "a <= b (alias of le)."),
            ("not_equal", "a != b (alias of ne)."),
            ("logical_and", "a and b element-wise."), ("logical_or", "a or b element-wise."),
            ("logical_xor", "a xor b element-wise."),
            ("bitwise_and", "a & b."), ("bitwise_or", "a | b."), ("bitwise_xor", "a ^ b."),
        )
    ),
    *(
        _fn(name, f"{name}(x)", doc, "a bool tensor, never requires grad", f"m = {name}(x)")
        for name, doc in (
            ("isnan", "Where x is NaN."), ("isinf", "Where x is infinite."),
            ("isfinite", "Where x is finite."), ("logical_not", "not x element-wise."),
            ("bitwise_not", "~x."),
        )
    ),
    _fn("equal", "equal(a, b)", "True if same shape and values.", "a Python bool",
        "same = equal(a, b)"),
    _fn("allclose", "allclose(a, b, rtol=1e-05, atol=1e-08)", "True if all close.",
        "a Python bool", "ok = allclose(a, b)"),
    _fn("masked_fill", "masked_fill(x, mask, value)", "value where mask is True.",
        _ELEMENTWISE.format("MaskedFillBackward0"), "y = x.masked_fill(x < 0, 0.)"),
    # -- more reductions and shapes --------------------------------------------------------------
    _fn("amax", "amax(x, dim=(), keepdim=False)", "Largest values; ties share the gradient.",
        "grad_fn AmaxBackward0", "m = x.amax(dim=0)"),
    _fn("amin", "amin(x, dim=(), keepdim=False)", "Smallest values; ties share the gradient.",
        "grad_fn AminBackward0", "m = x.amin(dim=0)"),
    _fn("logsumexp", "logsumexp(x, dim, keepdim=False)", "log(sum(exp(x))), computed stably.",
        "grad_fn LogsumexpBackward0", "l = x.logsumexp(dim=0)"),
    _fn("vector_norm", "vector_norm(x, ord=2, dim=None, keepdim=False)",
        "torch.linalg.vector_norm.", "grad_fn LinalgVectorNormBackward0",
        "n = vector_norm(x)", method=False, torch="torch.linalg.vector_norm"),
    _fn("swapaxes", "swapaxes(x, a, b)", "transpose (alias).", _VIEW.format("TransposeBackward0"),
        "y = x.swapaxes(0, 1)"),
    _fn("swapdims", "swapdims(x, a, b)", "transpose (alias).", _VIEW.format("TransposeBackward0"),
        "y = x.swapdims(0, 1)"),
    _fn("unflatten", "unflatten(x, dim, sizes)", "Split one dimension into several.",
        _VIEW.format("ViewBackward0"), "y = x.unflatten(0, (2, 3))"),
    _fn("narrow", "narrow(x, dim, start, length)", "A slice along one dimension.",
        _VIEW.format("SliceBackward0"), "y = x.narrow(0, 1, 2)"),
    _fn("select", "select(x, dim, index)", "One index along a dimension (x[:, i]).",
        _VIEW.format("SelectBackward0"), "y = x.select(1, 0)"),
    _fn("broadcast_to", "broadcast_to(x, shape)", "expand to shape.",
        _VIEW.format("ExpandBackward0"), "y = x.broadcast_to((3, 4))"),
    _fn("view_as", "x.view_as(other)", "view with other's shape.", _VIEW.format("ViewBackward0"),
        "y = x.view_as(z)", function=False),
    _fn("reshape_as", "x.reshape_as(other)", "reshape to other's shape.",
        _VIEW.format("ViewBackward0"), "y = x.reshape_as(z)", function=False),
    _fn("split", "split(x, split_size_or_sections, dim=0)", "Pieces of x along a dimension.",
        "a tuple of views; grad_fn SplitBackward0 / SplitWithSizesBackward0",
        "a, b = x.split(2)"),
    _fn("split_with_sizes", "split_with_sizes(x, split_sizes, dim=0)",
        "Pieces of x with the given sizes.", "a tuple of views; grad_fn SplitWithSizesBackward0",
        "a, b = x.split_with_sizes([1, 2])"),
    _fn("chunk", "chunk(x, chunks, dim=0)", "x in `chunks` nearly equal pieces.",
        "a tuple of views; grad_fn SplitBackward0", "a, b = x.chunk(2)"),
    _fn("unbind", "unbind(x, dim=0)", "The slices along a dimension, as a tuple.",
        "a tuple; grad_fn UnbindBackward0", "a, b = x.unbind()"),
    _fn("concat", "concat(tensors, dim=0)", "cat (alias).", "grad_fn CatBackward0",
        "y = concat([a, b])", method=False),
    _fn("concatenate", "concatenate(tensors, dim=0)", "cat (alias).", "grad_fn CatBackward0",
        "y = concatenate([a, b])", method=False),
    _fn("bmm", "bmm(a, b)", "Batched matrix product.", "grad_fn BmmBackward0", "y = bmm(a, b)"),
    _fn("outer", "outer(a, b)", "Outer product of two vectors.", "grad_fn MulBackward0",
        "y = outer(a, b)"),
    _fn("ger", "ger(a, b)", "outer (old name).", "grad_fn MulBackward0", "y = ger(a, b)"),
    _fn("inner", "inner(a, b)", "Inner product over the last dimension.",
        "grad_fn DotBackward0 for vectors", "y = inner(a, b)"),
    _fn("nll_loss", "nll_loss(log_probs, target, weight=None, ignore_index=-100, "
        "reduction='mean')",
        "Negative log likelihood of class indices; (N, C, d1, ...) inputs with (N, d1, ...) "
        "targets too.", "grad_fn NllLossBackward0 (NllLoss2DBackward0 from 3 dimensions on)",
        "loss = F.nll_loss(lp, t)", method=False, torch="torch.nn.functional.nll_loss"),
    _fn("cross_entropy", "cross_entropy(logits, target, weight=None, ignore_index=-100, "
        "reduction='mean', label_smoothing=0.0)",
        "log_softmax then nll_loss for class indices; a target of the logits' shape holds "
        "class probabilities; label_smoothing mixes in a uniform target; (N, C, d1, ...) logits "
        "take (N, d1, ...) targets.",
        "NllLossBackward0 (indices), DivBackward1 (probabilities, mean), AddBackward0 "
        "(label_smoothing)",
        "loss = F.cross_entropy(z, t)", method=False, torch="torch.nn.functional.cross_entropy"),
    *(
        _fn(name, f"{name}(x)", doc, _ELEMENTWISE.format(node), f"y = x.{name}()")
        for name, doc, node in (
            ("log1p", "log(1 + x), accurate near 0.", "Log1PBackward0"),
            ("expm1", "exp(x) - 1, accurate near 0.", "Expm1Backward0"),
            ("exp2", "2 ** x.", "Exp2Backward0"),
            ("sinh", "Hyperbolic sine.", "SinhBackward0"),
            ("cosh", "Hyperbolic cosine.", "CoshBackward0"),
            ("asin", "Arcsine.", "AsinBackward0"),
            ("acos", "Arccosine.", "AcosBackward0"),
            ("atan", "Arctangent.", "AtanBackward0"),
            ("arcsin", "asin (alias).", "AsinBackward0"),
            ("arccos", "acos (alias).", "AcosBackward0"),
            ("arctan", "atan (alias).", "AtanBackward0"),
            ("erf", "The error function.", "ErfBackward0"),
        )
    ),
    *(
        _fn(name, signature, doc, f"grad_fn {node}", f"y = F.{example}", method=False,
            torch=f"torch.nn.functional.{name}")
        for name, signature, doc, node, example in (
            ("leaky_relu", "leaky_relu(x, negative_slope=0.01, inplace=False)",
             "x, or slope * x below 0; inplace=True changes x itself.",
             "LeakyReluBackward0 (LeakyReluBackward1 in place)", "leaky_relu(x, 0.1)"),
            ("elu", "elu(x, alpha=1.0, inplace=False)",
             "x, or alpha * (exp(x) - 1) at or below 0; inplace=True changes x itself.",
             "EluBackward0 (EluBackward1 in place)", "elu(x)"),
            ("silu", "silu(x, inplace=False)", "x * sigmoid(x) (swish).", "SiluBackward0",
             "silu(x)"),
            ("softplus", "softplus(x, beta=1.0, threshold=20.0)",
             "log(1 + exp(beta * x)) / beta; x itself above threshold.", "SoftplusBackward0",
             "softplus(x)"),
            ("logsigmoid", "logsigmoid(x)", "log(sigmoid(x)), computed stably.",
             "LogSigmoidBackward0", "logsigmoid(x)"),
            ("hardtanh", "hardtanh(x, min_val=-1.0, max_val=1.0, inplace=False)",
             "clamp to [min_val, max_val]; gradient 0 at and beyond the bounds.",
             "HardtanhBackward0", "hardtanh(x)"),
            ("relu6", "relu6(x, inplace=False)", "hardtanh(x, 0, 6).", "HardtanhBackward0",
             "relu6(x)"),
            ("gelu", "gelu(x, approximate='none')",
             "x * Phi(x) (the normal CDF); approximate='tanh' for the tanh form.",
             "GeluBackward0", "gelu(x)"),
            ("l1_loss", "l1_loss(input, target, reduction='mean')",
             "Mean absolute error, composed as PyTorch does: (input - target).abs().mean().",
             "MeanBackward0 (SumBackward0 for 'sum', AbsBackward0 for 'none')",
             "l1_loss(y, t)"),
            ("smooth_l1_loss", "smooth_l1_loss(input, target, reduction='mean', beta=1.0)",
             "0.5 d^2 / beta below beta, |d| - 0.5 beta above.", "SmoothL1LossBackward0",
             "smooth_l1_loss(y, t)"),
            ("huber_loss", "huber_loss(input, target, reduction='mean', delta=1.0)",
             "0.5 d^2 below delta, delta (|d| - 0.5 delta) above.", "HuberLossBackward0",
             "huber_loss(y, t)"),
            ("binary_cross_entropy",
             "binary_cross_entropy(p, target, weight=None, reduction='mean')",
             "-(t log p + (1 - t) log(1 - p)), logs clamped at -100; p in [0, 1].",
             "BinaryCrossEntropyBackward0", "binary_cross_entropy(p, t)"),
            ("binary_cross_entropy_with_logits",
             "binary_cross_entropy_with_logits(x, target, weight=None, reduction='mean', "
             "pos_weight=None)",
             "binary_cross_entropy of sigmoid(x), computed stably from the logits.",
             "BinaryCrossEntropyWithLogitsBackward0",
             "binary_cross_entropy_with_logits(x, t)"),
        )
    ),
    _fn("cumsum", "cumsum(x, dim, dtype=None)", "Running sum along dim (integers give int64).",
        "grad_fn CumsumBackward0", "y = x.cumsum(0)"),
    _fn("cumprod", "cumprod(x, dim, dtype=None)", "Running product along dim (exact "
        "gradients with zeros).", "grad_fn CumprodBackward0", "y = x.cumprod(0)"),
    _fn("flip", "flip(x, dims)", "Reverse the order along dims (a copy).",
        "grad_fn FlipBackward0", "y = x.flip(0)"),
    _fn("repeat", "x.repeat(*sizes)", "Tile x sizes times along each dimension (a copy).",
        "grad_fn RepeatBackward0", "y = x.repeat(2, 1)", function=False),
    _fn("gather", "gather(x, dim, index)", "out[i][j] = x[index[i][j]][j] (for dim 0).",
        "grad_fn GatherBackward0", "y = x.gather(1, tensor([[0], [2]]))"),
    _fn("index_select", "index_select(x, dim, index)", "The entries of x at index along dim.",
        "grad_fn IndexSelectBackward0", "y = x.index_select(0, tensor([0, 2]))"),
    _fn("tril", "tril(x, diagonal=0)", "The lower triangle (others zero).",
        "grad_fn TrilBackward0", "y = x.tril()"),
    _fn("triu", "triu(x, diagonal=0)", "The upper triangle (others zero).",
        "grad_fn TriuBackward0", "y = x.triu(1)"),
    _fn("trace", "trace(x)", "Sum of the diagonal of a matrix.", "grad_fn TraceBackward0",
        "y = x.trace()"),
    _fn("addmm", "addmm(input, mat1, mat2, beta=1, alpha=1)",
        "beta * input + alpha * (mat1 @ mat2), in one op.", "grad_fn AddmmBackward0",
        "y = addmm(b, x, w.t())"),
    _fn("linear", "linear(x, weight, bias=None)",
        "x @ weight.T + bias, built as PyTorch builds it (addmm for a 2-D x with a bias).",
        "AddmmBackward0 (2-D x with bias), MmBackward0 (no bias), ViewBackward0 (other "
        "contiguous x with bias)", "y = F.linear(x, w, b)", method=False,
        torch="torch.nn.functional.linear"),
    *(
        _fn(name, signature, doc, autograd, example, method=False,
            torch=f"torch.nn.functional.{name}")
        for name, signature, doc, autograd, example in (
            ("bilinear", "bilinear(x1, x2, weight, bias=None)", "x1 @ weight @ x2 + bias.",
             "AddBackward0 over ViewBackward0 over TrilinearBackward0",
             "y = F.bilinear(a, b, w)"),
            ("conv1d", "conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, "
             "groups=1)", "1-d convolution (padding may be 'same' or 'valid').",
             "ConvolutionBackward0", "y = F.conv1d(x, w, padding=1)"),
            ("conv2d", "conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, "
             "groups=1)", "2-d convolution (padding may be 'same' or 'valid').",
             "ConvolutionBackward0", "y = F.conv2d(x, w, stride=2)"),
            ("max_pool1d", "max_pool1d(x, kernel_size, stride=None, padding=0, dilation=1, "
             "ceil_mode=False, return_indices=False)", "The maximum of each window.",
             "SqueezeBackward1 over MaxPool2DWithIndicesBackward0", "y = F.max_pool1d(x, 2)"),
            ("max_pool2d", "max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, "
             "ceil_mode=False, return_indices=False)", "The maximum of each window.",
             "MaxPool2DWithIndicesBackward0", "y = F.max_pool2d(x, 2)"),
            ("avg_pool1d", "avg_pool1d(x, kernel_size, stride=None, padding=0, "
             "ceil_mode=False, count_include_pad=True)", "The mean of each window.",
             "SqueezeBackward1 over AvgPool2DBackward0", "y = F.avg_pool1d(x, 2)"),
            ("avg_pool2d", "avg_pool2d(x, kernel_size, stride=None, padding=0, "
             "ceil_mode=False, count_include_pad=True, divisor_override=None)",
             "The mean of each window.", "AvgPool2DBackward0", "y = F.avg_pool2d(x, 2)"),
            ("adaptive_avg_pool2d", "adaptive_avg_pool2d(x, output_size)",
             "Average pooling to a given output size.",
             "AdaptiveAvgPool2DBackward0 (MeanBackward1 for 1x1)",
             "y = F.adaptive_avg_pool2d(x, (2, 2))"),
            ("batch_norm", "batch_norm(x, running_mean, running_var, weight=None, bias=None, "
             "training=False, momentum=0.1, eps=1e-05)", "Normalise per channel (dim 1) by the "
             "batch's statistics (training, updating the running ones in place) or the "
             "running ones.", "NativeBatchNormBackward0",
             "y = F.batch_norm(x, rm, rv, training=True)"),
            ("layer_norm", "layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-05)",
             "Normalise over the last dimensions.", "NativeLayerNormBackward0",
             "y = F.layer_norm(x, (4,))"),
            ("group_norm", "group_norm(x, num_groups, weight=None, bias=None, eps=1e-05)",
             "Normalise over groups of channels.", "NativeGroupNormBackward0",
             "y = F.group_norm(x, 2)"),
            ("embedding", "embedding(indices, weight, padding_idx=None, max_norm=None, ...)",
             "Rows of weight picked by integer indices.", "EmbeddingBackward0",
             "y = F.embedding(idx, w)"),
        )
    ),
    _fn("roll", "roll(x, shifts, dims=None)", "Rotate entries along dims (flattened if none).",
        "grad_fn RollBackward0", "y = x.roll(1, 0)"),
    _fn("atan2", "atan2(y, x)", "The angle of (x, y), element-wise.", "grad_fn Atan2Backward0",
        "a = atan2(y, x)"),
    _fn("arctan2", "arctan2(y, x)", "atan2 (alias).", "grad_fn Atan2Backward0",
        "a = arctan2(y, x)"),
    _fn("lerp", "lerp(start, end, weight)", "start + weight * (end - start); weight a number or "
        "a tensor (the three broadcast).", "grad_fn LerpBackward0 (LerpBackward1 for a tensor "
        "weight)", "y = lerp(a, b, 0.25)"),
    _fn("heaviside", "heaviside(x, values)", "The step: 0 below 0, 1 above, values where x is 0.",
        "not differentiable: grad_fn NotImplemented, whose backward raises",
        "h = heaviside(x, tensor(0.5))"),
    _fn("movedim", "movedim(x, source, destination)", "Move dimensions (a permuted view).",
        _VIEW.format("PermuteBackward0"), "y = x.movedim(0, -1)"),
    _fn("moveaxis", "moveaxis(x, source, destination)", "movedim (alias).",
        _VIEW.format("PermuteBackward0"), "y = x.moveaxis(0, -1)"),
    _fn("mish", "mish(x, inplace=False)", "x * tanh(softplus(x)).", "grad_fn MishBackward0",
        "y = F.mish(x)", method=False, torch="torch.nn.functional.mish"),
    _fn("hardsigmoid", "hardsigmoid(x, inplace=False)", "clamp(x / 6 + 1/2, 0, 1).",
        "grad_fn HardsigmoidBackward0", "y = F.hardsigmoid(x)", method=False,
        torch="torch.nn.functional.hardsigmoid"),
    _fn("softmin", "softmin(x, dim)", "softmax(-x, dim).",
        "SoftmaxBackward0 over NegBackward0", "y = F.softmin(x, 0)", method=False,
        torch="torch.nn.functional.softmin"),
    *(
        _fn(name, signature, doc, _CREATION, example, function=False, grad_flag=True)
        for name, signature, doc, example in (
            ("new_zeros", "x.new_zeros(*size)", "zeros with x's dtype and device.",
             "z = x.new_zeros(2, 3)"),
            ("new_ones", "x.new_ones(*size)", "ones with x's dtype and device.",
             "o = x.new_ones(2)"),
            ("new_empty", "x.new_empty(*size)", "An uninitialised tensor (zeros) like x's.",
             "e = x.new_empty(2)"),
            ("new_full", "x.new_full(size, value)", "full with x's dtype and device.",
             "f = x.new_full((2,), 7.)"),
            ("new_tensor", "x.new_tensor(data)", "tensor(data) with x's dtype and device.",
             "t = x.new_tensor([1, 2])"),
        )
    ),
    _fn("all", "all(x, dim=None, keepdim=False)", "Whether every element is non-zero (bool).",
        "not differentiable", "ok = (x > 0).all()"),
    _fn("any", "any(x, dim=None, keepdim=False)", "Whether some element is non-zero (bool).",
        "not differentiable", "some = (x > 0).any()"),
    _fn("randperm", "randperm(n, dtype=int64)", "A random permutation of 0..n-1 (PyTorch "
        "CPU's numbers after seed).", _CREATION, "p = randperm(5)", method=False),
    _fn("normal", "normal(mean, std, size) | normal(mean, std)", "Normal draws (PyTorch CPU's "
        "numbers after seed): numbers and a size, or a tensor mean and/or std (one draw per "
        "entry of their broadcast).", "numbers: " + _CREATION + "; tensors: NormalBackward1/2/3 "
        "(zero gradients)", "n = normal(0., 2., (2, 3))", method=False, grad_flag=True),
    _fn("multinomial", "multinomial(p, num_samples, replacement=False)",
        "Category indices drawn with the weights in p's rows (PyTorch CPU's numbers after seed).",
        "not differentiable (int64)", "i = multinomial(tensor([0.2, 0.8]), 1)"),
    _fn("randint_like", "randint_like(x, low=0, high)", "randint with x's shape and dtype.",
        _CREATION, "r = randint_like(x, 10)", method=False),
    _fn("exponential_", "x.exponential_(lambd=1)", "Fill x with exponential draws (PyTorch CPU's "
        "numbers after seed).", "in place (ExponentialBackward0)", "e = empty(3).exponential_()",
        function=False),
    _fn("bernoulli", "bernoulli(p)", "0/1 draws with the probabilities in p (PyTorch CPU's "
        "numbers after seed).", "not differentiable", "mask = bernoulli(full((3,), 0.5))"),
    _fn("sort", "sort(x, dim=-1, descending=False)",
        "(values, indices) sorted along dim, stably; NaN sorts as the largest.",
        "values: grad_fn SortBackward0; indices: int64", "v, i = x.sort()"),
    _fn("nan_to_num", "nan_to_num(x, nan=0.0, posinf=None, neginf=None)",
        "Replace NaN and infinities (by the dtype's extremes unless given).",
        "grad_fn NanToNumBackward0: the gradient is 0 where x was not finite",
        "y = x.nan_to_num()"),
    _fn("normalize", "normalize(x, p=2.0, dim=1, eps=1e-12)",
        "x over its p-norm along dim (at least eps), composed as PyTorch does.",
        "DivBackward0 over ExpandBackward0 / ClampMinBackward0 / LinalgVectorNormBackward0",
        "y = F.normalize(x, dim=0)", method=False, torch="torch.nn.functional.normalize"),
    _fn("cosine_similarity", "cosine_similarity(a, b, dim=1, eps=1e-8)",
        "The cosine of the angle between a and b along dim.", "grad_fn SumBackward1",
        "c = F.cosine_similarity(a, b)", method=False,
        torch="torch.nn.functional.cosine_similarity"),
    _fn("diag", "diag(x, diagonal=0)", "A vector's diagonal matrix, or a matrix's diagonal.",
        "DiagEmbedBackward0 (vector), DiagonalBackward0_copy (matrix)", "d = x.diag()"),
    _fn("masked_select", "masked_select(x, mask)", "The entries where mask is True, as 1-D.",
        "grad_fn MaskedSelectBackward0", "y = x.masked_select(x > 0)"),
    _fn("one_hot", "one_hot(indices, num_classes=-1)", "int64 one-hot rows of the indices.",
        "not differentiable", "o = F.one_hot(tensor([0, 2]), 3)", method=False,
        torch="torch.nn.functional.one_hot"),
    _fn("nonzero", "nonzero(x, as_tuple=False)", "The indices of the non-zero entries.",
        "not differentiable (int64)", "i = x.nonzero()"),
    _fn("median", "median(x, dim=None, keepdim=False)",
        "The lower median (NaN if any); with dim, (values, indices).",
        "MedianBackward0 (ties share the gradient), MedianBackward1 with dim", "m = x.median()"),
    _fn("nanmedian", "nanmedian(x)", "median ignoring NaN.", "grad_fn NanmedianBackward0",
        "m = x.nanmedian()"),
    _fn("kthvalue", "kthvalue(x, k, dim=-1, keepdim=False)",
        "(values, indices) of the k-th smallest along dim.", "values: KthvalueBackward0",
        "v, i = x.kthvalue(2)"),
    _fn("mode", "mode(x, dim=-1, keepdim=False)",
        "(values, indices): the most frequent value along dim (the smallest of a tie).",
        "values: ModeBackward0", "v, i = x.mode()"),
    _fn("xlogy", "xlogy(x, y)", "x * log(y), 0 where x is 0.", "grad_fn XlogyBackward0",
        "z = xlogy(p, q)"),
    _fn("kl_div", "kl_div(log_q, p, reduction='mean', log_target=False)",
        "KL divergence of log-probabilities against p, composed as PyTorch does "
        "('batchmean' sums and divides by the batch).",
        "MeanBackward0 / DivBackward0 ('batchmean') / SumBackward0 / SubBackward0",
        "loss = F.kl_div(q.log_softmax(1), p, reduction='batchmean')", method=False,
        torch="torch.nn.functional.kl_div"),
    _fn("argsort", "argsort(x, dim=-1, descending=False)", "The indices that sort x.",
        "not differentiable (int64)", "i = x.argsort()"),
    _fn("topk", "topk(x, k, dim=-1, largest=True)", "(values, indices) of the k largest "
        "(smallest with largest=False), in order.", "values: grad_fn TopkBackward0",
        "v, i = x.topk(2)"),
    _fn("bernoulli_", "x.bernoulli_(p=0.5)", "Fill x with 0/1 draws, 1 with probability p "
        "(PyTorch CPU's numbers after seed).", "in place (BernoulliBackward2)",
        "m = empty(3).bernoulli_(0.5)", function=False),
    _fn("dropout", "dropout(x, p=0.5, training=True, inplace=False)",
        "Zero each entry with probability p and scale the rest by 1 / (1 - p); PyTorch CPU's "
        "mask after seed.", "grad_fn MulBackward0 (the mask is saved)", "y = F.dropout(x, 0.2)",
        method=False, torch="torch.nn.functional.dropout"),
    _fn("addcmul", "addcmul(x, t1, t2, value=1)", "x + value * t1 * t2.",
        "grad_fn AddcmulBackward0", "y = x.addcmul(a, b, value=0.5)"),
    _fn("addcdiv", "addcdiv(x, t1, t2, value=1)", "x + value * t1 / t2.",
        "grad_fn AddcdivBackward0", "y = x.addcdiv(a, b)"),
    _fn("frac", "frac(x)", "x - trunc(x); the gradient passes through.",
        _ELEMENTWISE.format("FracBackward0"), "y = x.frac()"),
    _fn("dist", "dist(a, b, p=2)", "The p-norm of a - b.", "grad_fn DistBackward0",
        "d = dist(a, b)"),
    _fn("einsum", "einsum(equation, *operands)", "Einstein summation: operands' labelled "
        "dimensions multiplied and summed as the equation says ('ij,jk->ik'), as PyTorch "
        "composes it (diagonals, permutes, bmm).", "PermuteBackward0, BmmBackward0, "
        "ViewBackward0, MulBackward0, SumBackward1 ... as PyTorch's einsum records them",
        "y = einsum('ij,jk->ik', a, b)", method=False),
    _fn("diagonal", "diagonal(x, offset=0, dim1=0, dim2=1)", "A view of the offset-th "
        "diagonal over dim1 and dim2, appended as the last dimension.",
        _VIEW.format("DiagonalBackward0"), "d = x.diagonal()"),
    _fn("cdist", "cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary')",
        "The p-norm distance of every row of x1 to every row of x2 (batched).",
        "CdistBackward0; for p=2 with more than 25 rows, ViewBackward0 over "
        "EuclideanDistBackward0", "d = cdist(a, b)", method=False),
    # -- torch.linalg (`torch.linalg.NAME` reaches linalg_NAME where torch.NAME differs) --------
    _fn("inv", "inv(A)", "torch.linalg.inv: the inverse of each square matrix; a singular one "
        "raises torch.linalg.LinAlgError.", "grad_fn LinalgInvExBackward0", "B = inv(A)",
        method=False, target="linalg_inv", torch="torch.linalg.inv"),
    _fn("inv_ex", "inv_ex(A, check_errors=False)", "torch.linalg.inv_ex: (inverse, info), "
        "info the first zero pivot of each matrix (0: invertible).",
        "inverse: grad_fn LinalgInvExBackward0", "B, info = inv_ex(A)", method=False,
        torch="torch.linalg.inv_ex"),
    _fn("inverse", "inverse(A)", "torch.inverse: linalg.inv.", "grad_fn LinalgInvExBackward0",
        "B = A.inverse()"),
    _fn("det", "det(A)", "The determinant of each square matrix, from its LU factorization.",
        "grad_fn LinalgDetBackward0", "d = det(A)"),
    _fn("slogdet", "slogdet(A)", "torch.slogdet: (sign, logabsdet) of the determinant.",
        "both: grad_fn LinalgSlogdetBackward0 (one node)", "sign, logabsdet = slogdet(A)"),
    _fn("linalg_slogdet", "linalg_slogdet(A)", "torch.linalg.slogdet: as slogdet, a "
        "torch.return_types.linalg_slogdet.", "both: grad_fn LinalgSlogdetBackward0",
        "r = torch.linalg.slogdet(A)", method=False, torch="torch.linalg.slogdet"),
    _fn("logdet", "logdet(A)", "log det(A); NaN for a negative determinant.",
        "grad_fn WhereBackward0 over LinalgSlogdetBackward0", "l = A.logdet()"),
    _fn("solve", "solve(A, B, left=True)", "torch.linalg.solve: X with AX = B (XA = B with "
        "left=False); B may be a vector, batches broadcast.", "grad_fn LinalgSolveExBackward0",
        "x = solve(A, b)", method=False, target="linalg_solve", torch="torch.linalg.solve"),
    _fn("solve_ex", "solve_ex(A, B, left=True, check_errors=False)",
        "torch.linalg.solve_ex: (result, info).", "result: grad_fn LinalgSolveExBackward0",
        "x, info = solve_ex(A, b)", method=False, torch="torch.linalg.solve_ex"),
    _fn("solve_triangular", "solve_triangular(A, B, upper, left=True, unitriangular=False)",
        "torch.linalg.solve_triangular: X with AX = B for A's upper or lower triangle.",
        "grad_fn LinalgSolveTriangularBackward0", "x = solve_triangular(U, b, upper=True)",
        method=False, torch="torch.linalg.solve_triangular"),
    _fn("linalg_cholesky", "linalg_cholesky(A, upper=False)", "torch.linalg.cholesky: L with "
        "A = L L^T (U = L^T with upper=True); a matrix that is not positive-definite raises "
        "torch.linalg.LinAlgError.", "grad_fn LinalgCholeskyExBackward0",
        "L = torch.linalg.cholesky(A)", method=False, torch="torch.linalg.cholesky"),
    _fn("cholesky_ex", "cholesky_ex(A, upper=False, check_errors=False)",
        "torch.linalg.cholesky_ex: (L, info).", "L: grad_fn LinalgCholeskyExBackward0",
        "L, info = cholesky_ex(A)", method=False, torch="torch.linalg.cholesky_ex"),
    _fn("cholesky", "cholesky(A, upper=False)", "The deprecated torch.cholesky (warns once).",
        "grad_fn CholeskyBackward0", "L = A.cholesky()"),
    _fn("qr", "qr(A, mode='reduced')", "torch.linalg.qr: (Q, R); mode 'complete' or 'r' (an "
        "empty Q).", "both: grad_fn LinalgQrBackward0 (one node)", "Q, R = qr(A)",
        method=False, torch="torch.linalg.qr"),
    _fn("linalg_svd", "linalg_svd(A, full_matrices=True)", "torch.linalg.svd: (U, S, Vh). "
        "MKL's gesdd as PyTorch calls it: its bits and signs (NumPy's LAPACK without the `mkl` "
        "package).",
        "all three: grad_fn LinalgSvdBackward0 (one node)", "U, S, Vh = torch.linalg.svd(A)",
        method=False, torch="torch.linalg.svd"),
    _fn("svd", "svd(A, some=True, compute_uv=True)", "torch.svd: (U, S, V), V = Vh.mH.",
        "U, S: grad_fn LinalgSvdBackward0; V: TransposeBackward0", "U, S, V = A.svd()"),
    _fn("svdvals", "svdvals(A)", "torch.linalg.svdvals: the singular values, descending.",
        "grad_fn LinalgSvdBackward0", "s = svdvals(A)", method=False,
        torch="torch.linalg.svdvals"),
    _fn("eigh", "eigh(A, UPLO='L')", "torch.linalg.eigh: (eigenvalues ascending, "
        "eigenvectors) of a symmetric matrix, read from its lower (or upper) triangle. "
        "Eigenvectors may differ from PyTorch's in sign.", "both: grad_fn LinalgEighBackward0",
        "L, V = eigh(A)", method=False, torch="torch.linalg.eigh"),
    _fn("eigvalsh", "eigvalsh(A, UPLO='L')", "torch.linalg.eigvalsh: the eigenvalues of a "
        "symmetric matrix.", "grad_fn LinalgEighBackward0", "w = eigvalsh(A)", method=False,
        torch="torch.linalg.eigvalsh"),
    _fn("pinv", "pinv(A, atol=None, rtol=None, hermitian=False)", "torch.linalg.pinv: the "
        "pseudo-inverse, from the SVD (eigh with hermitian=True).",
        "grad_fn LinalgPinvBackward0", "P = pinv(A)", method=False, torch="torch.linalg.pinv"),
    _fn("pinverse", "pinverse(A, rcond=1e-15)", "torch.pinverse: linalg.pinv with rtol=rcond.",
        "grad_fn LinalgPinvBackward0", "P = A.pinverse()"),
    _fn("matrix_norm", "matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False)",
        "torch.linalg.matrix_norm: 'fro', 'nuc', 2, -2, 1, -1, inf, -inf.",
        "LinalgVectorNormBackward0 ('fro'), SumBackward1 ('nuc'), AmaxBackward0 / "
        "AminBackward0 (the others)", "n = matrix_norm(A)", method=False,
        torch="torch.linalg.matrix_norm"),
    _fn("linalg_norm", "linalg_norm(A, ord=None, dim=None, keepdim=False)",
        "torch.linalg.norm: a matrix norm over two dims, else a vector norm.",
        "as matrix_norm or vector_norm", "n = torch.linalg.norm(A)", method=False,
        torch="torch.linalg.norm"),
    _fn("count_nonzero", "count_nonzero(x, dim=None)", "How many entries are non-zero (int64).",
        "not differentiable", "n = x.count_nonzero()"),
    _fn("unique", "unique(x, sorted=True, return_inverse=False, return_counts=False)",
        "The sorted distinct values (and where each entry went, and how often).",
        "not differentiable", "u = x.unique()"),
    _fn("meshgrid", "meshgrid(*tensors, indexing='ij')",
        "Coordinate grids from 1-D tensors (expanded views).",
        "each grid: ExpandBackward0 over ViewBackward0", "gx, gy = meshgrid(a, b, indexing='ij')",
        method=False),
    _fn("uniform_", "x.uniform_(from=0, to=1)", "Fill x with uniform draws (PyTorch CPU's "
        "numbers after seed).", "in place (UniformBackward0)", "w.data.uniform_(-0.1, 0.1)",
        function=False),
    _fn("normal_", "x.normal_(mean=0, std=1)", "Fill x with normal draws (PyTorch CPU's "
        "numbers after seed).", "in place (NormalBackward0)", "w.data.normal_(0, 0.01)",
        function=False),
    _fn("pad", "pad(x, pad, mode='constant', value=0)",
        "Pad (or crop, with negative amounts) the last dimensions: (left, right) pairs from "
        "the last dimension backwards; mode 'reflect', 'replicate' or 'circular' pads 1 to 3 "
        "trailing dimensions of a batch or sample.", "ConstantPadNdBackward0, "
        "ReflectionPad{1,2,3}DBackward0, ReplicationPad{1,2,3}DBackward0, CopySlices (circular)",
        "y = F.pad(x, (1, 1))", method=False, torch="torch.nn.functional.pad"),
    _fn("unfold", "x.unfold(dim, size, step)   |   F.unfold(x, kernel_size, dilation=1, "
        "padding=0, stride=1)", "x.unfold: windows of size every step along dim, as a view "
        "with one more dimension; F.unfold: the columns of the sliding blocks of an (N, C, H, "
        "W) image (im2col).", "UnfoldBackward0 (a view); Im2ColBackward0",
        "w = x.unfold(0, 2, 1)", target="im2col", torch="torch.nn.functional.unfold"),
    _fn("fold", "fold(cols, output_size, kernel_size, dilation=1, padding=0, stride=1)",
        "F.fold: columns of sliding blocks added back into (N, C, H, W) images (col2im).",
        "grad_fn Col2ImBackward0", "img = F.fold(cols, (4, 5), 2)", method=False,
        target="col2im", torch="torch.nn.functional.fold"),
    _fn("logit", "logit(x, eps=None)", "log(x / (1 - x)), x clamped to [eps, 1 - eps] if given.",
        "grad_fn LogitBackward0", "z = p.logit()"),
    _fn("stride", "x.stride(dim=None)", "Elements to step in memory along each dimension.",
        "", "x.t().stride()", function=False),
    _fn("storage_offset", "x.storage_offset()",
        "Where a view starts in its base's memory, in elements.", "", "x[1].storage_offset()",
        function=False),
    _fn("is_tensor", "is_tensor(v)", "Whether v is a tensor.", "", "is_tensor(x)",
        method=False),
    _fn("take", "take(x, index)", "Entries of the flattened x at index.",
        "grad_fn TakeBackward0", "y = x.take(tensor([0, 5]))"),
    _fn("index_fill", "index_fill(x, dim, index, value)", "A copy with the slices at index "
        "along dim set to value.", "grad_fn IndexFillBackward0", "y = x.index_fill(1, "
        "tensor([0]), 0.)"),
    _fn("scatter", "scatter(x, dim, index, src)", "A copy with src (or a number) written at "
        "index along dim.", "ScatterBackward0 (tensor src), ScatterBackward1 (number)",
        "y = x.scatter(0, tensor([[1, 0, 1]]), s)"),
    _fn("scatter_add", "scatter_add(x, dim, index, src)", "A copy with src added at index "
        "along dim (repeated indices add up).", "grad_fn ScatterAddBackward0",
        "y = x.scatter_add(0, tensor([[1, 1, 0]]), s)"),
    _fn("index_add", "index_add(x, dim, index, source, alpha=1)", "A copy with alpha * source "
        "added to the slices at index along dim.", "grad_fn IndexAddBackward0",
        "y = x.index_add(0, tensor([1]), s)"),
    _fn("empty_like", "empty_like(x)", "An uninitialised tensor shaped like x (zeros).",
        _CREATION, "e = empty_like(x)", method=False, grad_flag=True),
    # -- more methods ------------------------------------------------------------------------------
    _fn("half", "x.half()", "Cast to float16.", "grad_fn ToCopyBackward0", "y = x.half()",
        function=False),
    _fn("bfloat16", "x.bfloat16()", "Cast to bfloat16.", "grad_fn ToCopyBackward0",
        "y = x.bfloat16()", function=False),
    _fn("short", "x.short()", "Cast to int16.", "", "y = x.short()", function=False),
    _fn("type", "x.type(dtype)", "Cast to dtype.", "grad_fn ToCopyBackward0",
        "y = x.type(float64)", function=False),
    _fn("element_size", "x.element_size()", "Bytes per element.", "", "n = x.element_size()",
        function=False),
    _fn("is_contiguous", "x.is_contiguous()", "Whether x is laid out contiguously.", "",
        "c = x.t().is_contiguous()", function=False),
    *(
        _fn(name, f"x.{name}()", f"{name[:-1]} in place.",
            "in place: bumps x._version; on a leaf that requires grad: error",
            f"y.{name}()", function=False)
        for name in ("abs_", "cos_", "exp_", "log_", "neg_", "reciprocal_", "relu_", "sigmoid_",
                     "sin_", "sqrt_", "square_", "tanh_")
    ),
    *(
        _fn(name, f"x.{name}({args})", f"{name[:-1]} in place.",
            "in place: bumps x._version; on a leaf that requires grad: error",
            f"y.{name}({example})", function=False)
        for name, args, example in (
            ("pow_", "exponent", "2"), ("clamp_", "min=None, max=None", "0, 1"),
            ("clamp_min_", "min", "0"), ("clamp_max_", "max", "1"),
            ("clip_", "min=None, max=None", "0, 1"), ("masked_fill_", "mask, value", "m, 0."),
        )
    ),
    *NN,
    # -- Python's builtins ------------------------------------------------------------------------
    *(
        _fn(name, signature, doc, "", example, method=False, python="only", torch=name)
        for name, signature, doc, example in (
            ("len", "len(x)", "Python's len: a tensor's first dimension, a list's length.",
             "n = len(x)"),
            ("range", "range(stop)   |   range(start, stop, step=1)", "Python's range.",
             "r = list(range(3))"),
            ("list", "list(iterable)", "Python's list; of a tensor, its rows (UnbindBackward0).",
             "rows = list(x)"),
            ("tuple", "tuple(iterable)", "Python's tuple; of a tensor, its rows.",
             "rows = tuple(x)"),
            ("zip", "zip(*iterables)", "Python's zip: tuples of the items at the same position.",
             "pairs = list(zip(a, b))"),
            ("enumerate", "enumerate(iterable, start=0)", "Python's enumerate: (index, item) "
             "pairs.", "pairs = list(enumerate(x))"),
        )
    ),
    # -- attributes ----------------------------------------------------------------------------
    _attr("grad", "The accumulated gradient, or None (with a warning for non-leaves).",
          "print a.grad"),
    _attr("is_leaf", "True unless x was produced by an operation that requires grad."),
    _attr("grad_fn", "The node that produced x (None for leaves)."),
    _attr("requires_grad", "Whether operations on x are recorded; settable on leaves."),
    _attr("retains_grad", "Whether x.retain_grad() was called on this non-leaf."),
    _attr("data", "A tensor on x's storage that autograd does not track; settable."),
    _attr("shape", "torch.Size of x."),
    _attr("dtype", "x's dtype."),
    _attr("device", "x's device."),
    _attr("T", "Transpose (PermuteBackward0)."),
    _attr("mT", "Transpose of the last two dimensions (TransposeBackward0)."),
    _attr("H", "Conjugate transpose of a matrix (for real tensors, .T)."),
    _attr("ndim", "Number of dimensions."),
    _attr("is_cuda", "Whether x lives on cuda."),
    _attr("_version", "How many in-place changes x's storage has seen."),
    _attr("_base", "The tensor a view was taken of, or None."),
)

# The modules `home` names; gradsh.torch's are imported on first use (they take a while).
HOMES = {"ops": "gradsh.engine.ops", "optim": "gradsh.torch.optim", "nn": "gradsh.torch.nn",
         "autograd": "gradsh.torch.autograd"}

BY_NAME: dict[str, Builtin] = {b.name: b for b in BUILTINS}
# The functions PyTorch writes in Python (their repr is `<function relu at 0x...>`, not a
# built-in method's); tests/test_builtins.py checks the list against torch.
PYTHON_DEFINED: frozenset[str] = frozenset("""
relu norm softmax log_softmax mse_loss backward grad manual_seed split nll_loss cross_entropy
leaky_relu elu silu hardtanh relu6 l1_loss smooth_l1_loss huber_loss binary_cross_entropy
binary_cross_entropy_with_logits max_pool1d max_pool2d adaptive_avg_pool2d batch_norm layer_norm
group_norm embedding mish hardsigmoid softmin normalize kl_div dropout einsum cdist unique
meshgrid pad unfold fold is_tensor
""".split())
FUNCTIONS: dict[str, Builtin] = {b.name: b for b in BUILTINS if b.function}
METHODS: frozenset[str] = frozenset(b.name for b in BUILTINS if b.method)
ATTRIBUTES: frozenset[str] = frozenset(b.name for b in BUILTINS if b.kind == "attribute")
STATEMENTS: frozenset[str] = frozenset(b.name for b in BUILTINS if b.kind == "statement")
# What a script may read or call on an object of each class gradsh.torch serves ("Module" is
# torch.nn.Module, "Optimizer" torch.optim.Optimizer); nothing else of theirs is reachable.
MEMBERS: dict[str, frozenset[str]] = {
    owner: frozenset(b.name for b in BUILTINS if owner in b.owners)
    for owner in ("Module", "Optimizer")
}

# Python-level methods named as operators, accepted on tensors (`x.__add__` is not).
OPERATOR_METHODS: frozenset[str] = frozenset()

# Writable tensor attributes: `x.grad = None`, `x.data = e`, `x.requires_grad = false`.
WRITABLE_ATTRIBUTES = frozenset({"grad", "data", "requires_grad"})

# Namespaces that accept every builtin: torch.exp, F.relu, torch.autograd.grad, nn.functional.
MODULES = {
    "torch": ("nn", "autograd", "optim", "cuda", "linalg"),
    "torch.nn": ("functional",),
    "torch.nn.functional": (),
    "torch.autograd": (),
    "torch.optim": (),
    "torch.cuda": (),
    "torch.linalg": (),
}
MODULE_ALIASES = {"F": "torch.nn.functional", "nn": "torch.nn"}

# Names of constants: dtypes and devices, plain and with the torch. prefix.
DTYPE_NAMES = ("float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
               "uint8", "bool", "float", "double", "half", "long", "int", "short")
DEVICE_NAMES = ("cpu", "cuda")
# Number constants, as torch.nan, torch.inf, torch.pi, torch.e.
NUMBER_CONSTANTS = {"nan": float("nan"), "inf": float("inf"), "pi": 3.141592653589793,
                    "e": 2.718281828459045}
