"""The torch.nn part of the builtin table: the module classes a .grad script may build and
what it may use of a module (gradsh.builtins puts it in its place in the table)."""

from __future__ import annotations

from gradsh.builtin_entry import _MOD, Builtin, _cls, _fn, _member

NN: tuple[Builtin, ...] = (
    # -- torch.nn: modules, and what a script may use of them ----------------------------------
    _cls("Linear", "nn.Linear(in_features, out_features, bias=True)",
         "y = x @ weight.T + bias, PyTorch's initialisation after seed.",
         "grad_fn AddmmBackward0 (2-d input)", "layer = nn.Linear(3, 4)"),
    _cls("Bilinear", "nn.Bilinear(in1_features, in2_features, out_features, bias=True)",
         "y = x1 @ weight @ x2 + bias.", "grad_fn AddBackward0 over TrilinearBackward0",
         "b = nn.Bilinear(2, 3, 4)"),
    _cls("Identity", "nn.Identity()", "Returns its input.", "the input itself", "nn.Identity()"),
    _cls("Flatten", "nn.Flatten(start_dim=1, end_dim=-1)", "Flatten dims start..end.",
         "grad_fn ViewBackward0", "nn.Flatten()"),
    _cls("Unflatten", "nn.Unflatten(dim, sizes)", "Split one dimension into sizes.",
         "grad_fn ViewBackward0", "nn.Unflatten(1, (2, 3))"),
    _cls("Embedding", "nn.Embedding(num_embeddings, embedding_dim, padding_idx=None, ...)",
         "Rows of weight picked by integer indices.", "grad_fn EmbeddingBackward0",
         "emb = nn.Embedding(10, 3)"),
    _cls("Dropout", "nn.Dropout(p=0.5)", "Dropout while training; the identity after eval().",
         "grad_fn MulBackward0 (training), none (eval)", "drop = nn.Dropout(0.5)"),
    _cls("BatchNorm1d", "nn.BatchNorm1d(num_features, eps=1e-05, momentum=0.1, ...)",
         "Normalise each feature by the batch's statistics (training, updating running_mean "
         "and running_var) or the running ones (eval).", "grad_fn NativeBatchNormBackward0",
         "bn = nn.BatchNorm1d(3)"),
    _cls("BatchNorm2d", "nn.BatchNorm2d(num_features, eps=1e-05, momentum=0.1, ...)",
         "BatchNorm1d per channel of (N, C, H, W) input.", "grad_fn NativeBatchNormBackward0",
         "bn = nn.BatchNorm2d(3)"),
    _cls("LayerNorm", "nn.LayerNorm(normalized_shape, eps=1e-05, elementwise_affine=True)",
         "Normalise over the last dimensions of each sample.",
         "grad_fn NativeLayerNormBackward0", "ln = nn.LayerNorm(4)"),
    _cls("GroupNorm", "nn.GroupNorm(num_groups, num_channels, eps=1e-05, affine=True)",
         "Normalise over groups of channels.", "grad_fn NativeGroupNormBackward0",
         "gn = nn.GroupNorm(2, 4)"),
    _cls("Conv1d", "nn.Conv1d(in_channels, out_channels, kernel_size, stride=1, padding=0, "
         "...)", "1-d convolution.", "grad_fn ConvolutionBackward0", "conv = nn.Conv1d(2, 3, 3)"),
    _cls("Conv2d", "nn.Conv2d(in_channels, out_channels, kernel_size, stride=1, padding=0, "
         "...)", "2-d convolution.", "grad_fn ConvolutionBackward0", "conv = nn.Conv2d(1, 2, 3)"),
    _cls("MaxPool1d", "nn.MaxPool1d(kernel_size, stride=None, padding=0, ...)",
         "The maximum of each window.", "grad_fn SqueezeBackward1 over "
         "MaxPool2DWithIndicesBackward0", "pool = nn.MaxPool1d(2)"),
    _cls("MaxPool2d", "nn.MaxPool2d(kernel_size, stride=None, padding=0, ...)",
         "The maximum of each window.", "grad_fn MaxPool2DWithIndicesBackward0",
         "pool = nn.MaxPool2d(2)"),
    _cls("AvgPool1d", "nn.AvgPool1d(kernel_size, stride=None, padding=0, ...)",
         "The mean of each window.", "grad_fn SqueezeBackward1 over AvgPool2DBackward0",
         "pool = nn.AvgPool1d(2)"),
    _cls("AvgPool2d", "nn.AvgPool2d(kernel_size, stride=None, padding=0, ...)",
         "The mean of each window.", "grad_fn AvgPool2DBackward0", "pool = nn.AvgPool2d(2)"),
    _cls("AdaptiveAvgPool2d", "nn.AdaptiveAvgPool2d(output_size)",
         "Average pooling to a given output size.", "grad_fn AdaptiveAvgPool2DBackward0 (or "
         "MeanBackward1 for 1x1)", "pool = nn.AdaptiveAvgPool2d((2, 2))"),
    _cls("RNN", "nn.RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', ...)",
         "Elman RNN: returns (output, h_n).", "grad_fn StackBackward0 (per step: "
         "AddmmBackward0, TanhBackward0 ...)", "rnn = nn.RNN(3, 4)"),
    _cls("LSTM", "nn.LSTM(input_size, hidden_size, num_layers=1, batch_first=False, ...)",
         "LSTM: returns (output, (h_n, c_n)).", "grad_fn StackBackward0 (float64; float32 "
         "PyTorch uses oneDNN's node)", "lstm = nn.LSTM(3, 4)"),
    _cls("GRU", "nn.GRU(input_size, hidden_size, num_layers=1, batch_first=False, ...)",
         "GRU: returns (output, h_n).", "grad_fn StackBackward0", "gru = nn.GRU(3, 4)"),
    *(
        _cls(name, f"nn.{name}({args})", doc, f"grad_fn {node}", f"act = nn.{name}()")
        for name, args, doc, node in (
            ("ReLU", "inplace=False", "max(x, 0).", "ReluBackward0"),
            ("LeakyReLU", "negative_slope=0.01", "x, or slope * x below 0.",
             "LeakyReluBackward0"),
            ("ELU", "alpha=1.0", "x, or alpha * (exp(x) - 1) below 0.", "EluBackward0"),
            ("GELU", "approximate='none'", "x * Phi(x).", "GeluBackward0"),
            ("SiLU", "", "x * sigmoid(x).", "SiluBackward0"),
            ("Mish", "", "x * tanh(softplus(x)).", "MishBackward0"),
            ("Sigmoid", "", "1 / (1 + exp(-x)).", "SigmoidBackward0"),
            ("Tanh", "", "tanh(x).", "TanhBackward0"),
            ("Softplus", "beta=1.0, threshold=20.0", "log(1 + exp(x)).", "SoftplusBackward0"),
            ("Softmax", "dim=None", "softmax along dim.", "SoftmaxBackward0"),
            ("LogSoftmax", "dim=None", "log_softmax along dim.", "LogSoftmaxBackward0"),
            ("Hardtanh", "min_val=-1.0, max_val=1.0", "x clamped to [min_val, max_val].",
             "HardtanhBackward0"),
            ("ReLU6", "inplace=False", "min(max(x, 0), 6).", "HardtanhBackward0"),
        )
    ),
    *(
        _cls(name, f"nn.{name}({args})", doc, f"grad_fn {node}", f"loss_fn = nn.{name}()")
        for name, args, doc, node in (
            ("MSELoss", "reduction='mean'", "Mean squared error.", "MseLossBackward0"),
            ("L1Loss", "reduction='mean'", "Mean absolute error.", "MeanBackward0"),
            ("SmoothL1Loss", "reduction='mean', beta=1.0", "Huber-like loss.",
             "SmoothL1LossBackward0"),
            ("HuberLoss", "reduction='mean', delta=1.0", "Huber loss.", "HuberLossBackward0"),
            ("CrossEntropyLoss", "weight=None, ignore_index=-100, reduction='mean', "
             "label_smoothing=0.0", "log_softmax then nll_loss.", "NllLossBackward0"),
            ("NLLLoss", "weight=None, ignore_index=-100, reduction='mean'",
             "Negative log likelihood of log-probabilities.", "NllLossBackward0"),
            ("BCELoss", "weight=None, reduction='mean'", "Binary cross-entropy of "
             "probabilities.", "BinaryCrossEntropyBackward0"),
            ("BCEWithLogitsLoss", "weight=None, reduction='mean', pos_weight=None",
             "Binary cross-entropy of logits.", "BinaryCrossEntropyWithLogitsBackward0"),
            ("KLDivLoss", "reduction='mean', log_target=False",
             "Kullback-Leibler divergence of log-probabilities.", "MeanBackward0 ..."),
        )
    ),
    _cls("Sequential", "nn.Sequential(*modules)", "Runs its modules in order; model[0] (or "
         "model.0) is the first.", "", "model = nn.Sequential(nn.Linear(3, 4), nn.ReLU())"),
    _cls("ModuleList", "nn.ModuleList(modules)", "A list of modules (indexed like a list).",
         "", "layers = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 1)])"),
    _cls("Parameter", "nn.Parameter(data, requires_grad=True)",
         "A leaf tensor that a module registers as a parameter.", "a leaf; requires grad",
         "w = nn.Parameter(randn(3))"),
    *(
        _member(name, _MOD, signature, doc, autograd, example)
        for name, signature, doc, autograd, example in (
            ("forward", "model.forward(x)", "What model(x) runs, without the module's hooks.",
             "", "y = model.forward(x)"),
            ("parameters", "model.parameters()", "The parameters, each once, in registration "
             "order (what an optimizer takes).", "", "opt = sgd(model.parameters(), lr=0.1)"),
            ("named_parameters", "model.named_parameters()", "(qualified name, parameter) "
             "pairs.", "", "opt = sgd(model.named_parameters(), lr=0.1)"),
            ("buffers", "model.buffers()", "The buffers (running_mean ...).", "",
             "print(bn.buffers())"),
            ("children", "model.children()", "The direct submodules.", "",
             "print(model.children())"),
            ("modules", "model.modules()", "The module and every submodule.", "",
             "print(model.modules())"),
            ("train", "model.train(mode=True)", "Training mode (dropout drops, batch norm uses "
             "and updates batch statistics); returns the module.",
             "none: autograd records as before", "model.train()"),
            ("eval", "model.eval()", "Evaluation mode: dropout off, batch norm uses running "
             "statistics; returns the module.", "none: unlike no_grad, autograd still records",
             "model.eval()"),
            ("requires_grad_", "model.requires_grad_(requires_grad=True)",
             "Set requires_grad of every parameter.", "", "model.requires_grad_(False)"),
            ("to", "model.to(dtype | device)", "Move or cast the parameters and buffers in "
             "place; returns the module.", "", "model.to(float64)"),
            ("float", "model.float()", "Cast floating parameters and buffers to float32.", "",
             "model.float()"),
            ("double", "model.double()", "Cast floating parameters and buffers to float64.", "",
             "model.double()"),
            ("state_dict", "model.state_dict()", "An OrderedDict of qualified name -> tensor "
             "(detached).", "", "sd = model.state_dict()"),
            ("load_state_dict", "model.load_state_dict(state_dict, strict=True)",
             "Copy tensors in by qualified name (PyTorch's errors when strict).", "",
             "model.load_state_dict(sd)"),
            ("training", "model.training", "Whether the module is in training mode.", "",
             "print(model.training)"),
            ("weight", "layer.weight", "The layer's weight Parameter.", "a leaf",
             "print(layer.weight)"),
            ("bias", "layer.bias", "The layer's bias Parameter (or None).", "a leaf",
             "print(layer.bias)"),
            ("in_features", "layer.in_features", "Linear's input size.", "", "layer.in_features"),
            ("out_features", "layer.out_features", "Linear's output size.", "",
             "layer.out_features"),
            ("running_mean", "bn.running_mean", "Batch norm's running mean (a buffer).", "",
             "print(bn.running_mean)"),
            ("running_var", "bn.running_var", "Batch norm's running variance (a buffer).", "",
             "print(bn.running_var)"),
            ("num_batches_tracked", "bn.num_batches_tracked", "Batches seen while training.",
             "", "print(bn.num_batches_tracked)"),
            ("p", "drop.p", "Dropout's probability.", "", "print(drop.p)"),
            ("momentum", "bn.momentum", "Batch norm's running-statistics momentum.", "",
             "print(bn.momentum)"),
            ("eps", "bn.eps", "The epsilon added to the variance.", "", "print(bn.eps)"),
        )
    ),
)
