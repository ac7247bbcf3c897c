"""torch.nn.modules: every layer class, from the files PyTorch keeps them in."""

from __future__ import annotations

from gradsh.torch.nn.modules.activation import (
    CELU, ELU, GELU, GLU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LeakyReLU, LogSigmoid,
    LogSoftmax, Mish, MultiheadAttention,
    PReLU, RReLU, ReLU, ReLU6, SELU, SiLU, Sigmoid, Softmax, Softmax2d, Softmin,
    Softplus, Softshrink, Softsign, Tanh, Tanhshrink, Threshold,
)
from gradsh.torch.nn.modules.batchnorm import (
    BatchNorm1d, BatchNorm2d, BatchNorm3d, LazyBatchNorm1d, LazyBatchNorm2d,
)
from gradsh.torch.nn.modules.adaptive import AdaptiveLogSoftmaxWithLoss
from gradsh.torch.nn.modules.ctc import CTCLoss
from gradsh.torch.nn.modules.conv_transpose3d import ConvTranspose3d
from gradsh.torch.nn.modules.pooling3d_more import AdaptiveMaxPool3d, LPPool3d, MaxUnpool3d
from gradsh.torch.nn.modules.pooling3d_more import FractionalMaxPool2d, FractionalMaxPool3d
from gradsh.torch.nn.modules.sync_batchnorm import SyncBatchNorm
from gradsh.torch.nn.modules.container import (
    ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential,
)
from gradsh.torch.nn.modules.conv import (
    Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, LazyConv1d, LazyConv2d,
)
from gradsh.torch.nn.modules.dropout import AlphaDropout, Dropout, Dropout1d, Dropout2d
from gradsh.torch.nn.modules.dropout import Dropout3d, FeatureAlphaDropout
from gradsh.torch.nn.modules.flatten import Flatten, Unflatten
from gradsh.torch.nn.modules.fold import Fold, Unfold
from gradsh.torch.nn.modules.instancenorm import InstanceNorm1d, InstanceNorm2d
from gradsh.torch.nn.modules.instancenorm import InstanceNorm3d
from gradsh.torch.nn.modules.lazy import LazyModuleMixin
from gradsh.torch.nn.modules.linear import Bilinear, Identity, LazyLinear, Linear
from gradsh.torch.nn.modules.distance import CosineSimilarity, PairwiseDistance
from gradsh.torch.nn.modules.loss import (
    BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, GaussianNLLLoss,
    HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss, MSELoss,
    MultiLabelSoftMarginLoss, MultiMarginLoss, NLLLoss, PoissonNLLLoss, SmoothL1Loss,
    SoftMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss, MultiLabelMarginLoss,
)
from gradsh.torch.nn.modules.module import Module
from gradsh.torch.nn.modules.normalization import GroupNorm, LayerNorm, LocalResponseNorm
from gradsh.torch.nn.modules.normalization import RMSNorm
from gradsh.torch.nn.modules.pooling import (
    AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool3d, LPPool1d, LPPool2d, MaxPool3d,
    AdaptiveAvgPool3d,
    AdaptiveAvgPool1d, AdaptiveAvgPool2d, AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d,
)
from gradsh.torch.nn.modules.rnn import (
    GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase,
)
from gradsh.torch.nn.modules.padding import (
    CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d,
    ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
    ReplicationPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d,
)
from gradsh.torch.nn.modules.pixelshuffle import ChannelShuffle, PixelShuffle, PixelUnshuffle
from gradsh.torch.nn.modules.sparse import Embedding, EmbeddingBag
from gradsh.torch.nn.modules.transformer import (
    Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
    TransformerEncoderLayer,
)
from gradsh.torch.nn.modules import utils
from gradsh.torch.nn.modules.upsampling import (
    MaxUnpool1d, MaxUnpool2d, Upsample, UpsamplingBilinear2d, UpsamplingNearest2d,
)

__all__ = [
    "AdaptiveLogSoftmaxWithLoss",
    "CTCLoss", "ConvTranspose3d", "AdaptiveMaxPool3d", "LPPool3d", "MaxUnpool3d",
    "SyncBatchNorm", "FractionalMaxPool2d", "FractionalMaxPool3d",
    "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "RMSNorm",
    "RReLU", "BatchNorm3d", "Dropout3d",
    "InstanceNorm3d", "AvgPool3d", "LPPool1d", "LPPool2d", "TripletMarginWithDistanceLoss",
    "MultiLabelMarginLoss", "Conv3d", "MaxPool3d", "AdaptiveAvgPool3d",
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AlphaDropout", "AvgPool1d", "AvgPool2d",
    "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d", "Bilinear", "CELU", "Conv1d",
    "Conv2d", "ConvTranspose1d", "ConvTranspose2d", "CosineEmbeddingLoss", "CosineSimilarity", "CrossEntropyLoss", "Dropout", "Dropout1d", "Dropout2d", "ELU", "Embedding",
    "Flatten", "Fold", "GELU", "GLU", "GRU", "GRUCell", "GaussianNLLLoss", "GroupNorm",
    "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "HingeEmbeddingLoss", "HuberLoss", "Identity", "KLDivLoss", "L1Loss", "LSTM",
    "LSTMCell", "LayerNorm", "LeakyReLU", "Linear", "LogSigmoid", "LogSoftmax", "MSELoss",
    "MarginRankingLoss", "MaxPool1d", "MaxPool2d", "Mish", "Module", "ModuleDict", "ModuleList",
    "MultiLabelSoftMarginLoss", "MultiMarginLoss", "NLLLoss", "PReLU", "PairwiseDistance",
    "PoissonNLLLoss",
    "ParameterDict", "ParameterList", "RNN", "RNNBase", "RNNCell", "RNNCellBase", "ReLU",
    "ReLU6", "SELU", "Sequential", "SiLU", "Sigmoid", "SmoothL1Loss", "SoftMarginLoss",
    "Softmax", "Softmax2d", "Softmin", "Softplus", "Softshrink", "Softsign", "Tanh",
    "Tanhshrink", "Threshold", "TripletMarginLoss",
    "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyConv1d", "LazyConv2d", "LazyLinear",
    "LazyModuleMixin",
    "Unflatten", "Unfold", "MultiheadAttention", "Transformer", "TransformerDecoder",
    "TransformerDecoderLayer", "TransformerEncoder", "TransformerEncoderLayer", "PixelShuffle",
    "PixelUnshuffle", "InstanceNorm1d", "InstanceNorm2d", "EmbeddingBag", "LocalResponseNorm",
    "MaxUnpool2d", "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d",
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
    "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
    "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d",
    "ZeroPad3d", "ChannelShuffle", "FeatureAlphaDropout", "MaxUnpool1d",
]
