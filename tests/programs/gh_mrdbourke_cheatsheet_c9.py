# Corpus program, written for gradsh (no code copied). Modelled on Daniel Bourke's "Zero to
# Mastery Learn PyTorch", extras/pytorch_cheatsheet.ipynb (MIT):
# https://github.com/mrdbourke/pytorch-deep-learning/blob/main/extras/pytorch_cheatsheet.ipynb
# Like the original: the device choice, seeded rand compared with ==, the layer zoo (Linear,
# Identity, Conv1d/2d/3d, TransformerEncoderLayer/TransformerEncoder, TransformerDecoderLayer/
# TransformerDecoder, LSTMCell, LSTM(num_layers=3), GRUCell, GRU(num_layers=3)), activations
# and losses, SGD/Adam over a model's parameters, and the end-to-end straight-line example:
# arange(0, 1, 0.02) data with weight 0.7 / bias 0.3, an 80/20 split, a LinearRegressionModel
# around nn.Linear(1, 1) and an nn.Sequential version printed with their state_dicts, L1Loss,
# SGD(lr=0.01), 1000 epochs with train()/eval() and inference_mode, printing every 100 epochs.
# Differences: layers are printed (the notebook only builds them) with parameter counts; the
# transformer sizes are small (d_model=16, nhead=2, two layers) so the program is fast; each
# layer is applied once to a seeded input and its output shape (and a sum) printed.
import torch
from torch import nn

print(f"PyTorch version major: {torch.__version__.split('.')[0]}")
this_is_a_module = nn.Linear(in_features=1, out_features=1)
print(type(this_is_a_module))
device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using device: {device}")
x = torch.tensor([1, 2, 3])
print(x.device)
x = x.to(device)
print(x.device)

torch.manual_seed(42)
random_tensor_A = torch.rand(3, 4)
torch.manual_seed(42)
random_tensor_B = torch.rand(3, 4)
print(f"Tensor A:\n{random_tensor_A}\n")
print(f"Tensor B:\n{random_tensor_B}\n")
print(f"Does Tensor A equal Tensor B? (anywhere)")
print(random_tensor_A == random_tensor_B)

torch.manual_seed(0)
layers = {
    "linear_layer": nn.Linear(in_features=10, out_features=10),
    "identity_layer": nn.Identity(),
    "conv1d": nn.Conv1d(in_channels=1, out_channels=10, kernel_size=3),
    "conv2d": nn.Conv2d(in_channels=3, out_channels=10, kernel_size=3),
    "conv3d": nn.Conv3d(in_channels=3, out_channels=10, kernel_size=3),
}
transformer_encoder = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32)
layers["transformer_encoder_stack"] = nn.TransformerEncoder(encoder_layer=transformer_encoder,
                                                            num_layers=2)
transformer_decoder = nn.TransformerDecoderLayer(d_model=16, nhead=2, dim_feedforward=32)
layers["transformer_decoder_stack"] = nn.TransformerDecoder(decoder_layer=transformer_decoder,
                                                            num_layers=2)
layers["lstm_cell"] = nn.LSTMCell(input_size=10, hidden_size=10)
layers["lstm_stack"] = nn.LSTM(input_size=10, hidden_size=10, num_layers=3)
layers["gru_cell"] = nn.GRUCell(input_size=10, hidden_size=10)
layers["gru_stack"] = nn.GRU(input_size=10, hidden_size=10, num_layers=3)
for name, layer in layers.items():
    count = sum(p.numel() for p in layer.parameters())
    print(f"{name}: {count} parameters")
    print(layer)

inputs = {
    "linear_layer": torch.randn(2, 10), "identity_layer": torch.randn(2, 10),
    "conv1d": torch.randn(2, 1, 12), "conv2d": torch.randn(2, 3, 8, 8),
    "conv3d": torch.randn(1, 3, 5, 5, 5), "transformer_encoder_stack": torch.randn(5, 2, 16),
    "lstm_cell": torch.randn(2, 10), "lstm_stack": torch.randn(4, 2, 10),
    "gru_cell": torch.randn(2, 10), "gru_stack": torch.randn(4, 2, 10),
}
for name, layer in layers.items():
    layer.eval()
    with torch.no_grad():
        if name == "transformer_decoder_stack":
            out = layer(torch.randn(3, 2, 16), torch.randn(5, 2, 16))
        else:
            out = layer(inputs[name])
    if isinstance(out, tuple):
        first = out[0]
        print(f"{name}: tuple, first {tuple(first.shape)} sum {first.sum():.4f}")
    else:
        print(f"{name}: {tuple(out.shape)} sum {out.sum():.4f}")

relu = nn.ReLU()
sigmoid = nn.Sigmoid()
softmax = nn.Softmax(dim=1)
z = torch.randn(2, 4)
print(relu(z), sigmoid(z), softmax(z), sep="\n")
for loss_fn in (nn.L1Loss(), nn.MSELoss(), nn.BCEWithLogitsLoss()):
    print(loss_fn, loss_fn(z, torch.rand(2, 4)))
loss_fn = nn.CrossEntropyLoss()
print(loss_fn, loss_fn(z, torch.tensor([1, 3])))
model = layers["transformer_encoder_stack"]
optimizer = torch.optim.SGD(lr=0.1, params=model.parameters())
print(optimizer)
optimizer = torch.optim.Adam(lr=0.001, params=model.parameters())
print(optimizer)

weight = 0.7
bias = 0.3
start = 0
end = 1
step = 0.02
X = torch.arange(start, end, step).unsqueeze(dim=1)
y = weight * X + bias
print((X[:10], y[:10]))
train_split = int(0.8 * len(X))
X_train, y_train = X[:train_split], y[:train_split]
X_test, y_test = X[train_split:], y[train_split:]
print((len(X_train), len(y_train), len(X_test), len(y_test)))


class LinearRegressionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear_layer = nn.Linear(in_features=1, out_features=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear_layer(x)


torch.manual_seed(42)
model_0 = LinearRegressionModel()
print((model_0, model_0.state_dict()))
model_1 = torch.nn.Sequential(nn.Linear(in_features=1, out_features=1))
print((model_1, model_1.state_dict()))
loss_fn = nn.L1Loss()
optimizer = torch.optim.SGD(params=model_1.parameters(), lr=0.01)
torch.manual_seed(42)
epochs = 1000
X_train, X_test = X_train.to(device), X_test.to(device)
y_train, y_test = y_train.to(device), y_test.to(device)
model_1 = model_1.to(device)
for epoch in range(epochs):
    model_1.train()
    y_pred = model_1(X_train)
    loss = loss_fn(y_pred, y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model_1.eval()
    with torch.inference_mode():
        test_pred = model_1(X_test)
        test_loss = loss_fn(test_pred, y_test)
    if epoch % 100 == 0:
        print(f"Epoch: {epoch} | Train loss: {loss} | Test loss: {test_loss}")
print(model_1.state_dict())
print(f"weight: {weight}, bias: {bias}")
with torch.inference_mode():
    y_preds = model_1(X_test)
print(y_preds, y_preds.requires_grad, y_preds.is_inference())
