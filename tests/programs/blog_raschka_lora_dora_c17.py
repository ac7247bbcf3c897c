# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's article
# "Improving LoRA: Implementing Weight-Decomposed Low-Rank Adaptation (DoRA) from Scratch":
# https://magazine.sebastianraschka.com/p/lora-and-dora-from-scratch
# Like the article: LoRALayer (A drawn as torch.randn(in_dim, rank) / sqrt(rank), B zeros,
# alpha * (x @ A @ B)), LinearWithLoRA, LinearWithLoRAMerged (W + alpha * (A @ B).T through
# F.linear), LinearWithDoRAMerged (the magnitude vector m = W.norm(p=2, dim=0, keepdim=True)
# as a Parameter, the direction normalised column-wise); a single Linear layer's outputs
# compared with and without the adapters; a multilayer perceptron whose Linear layers are
# swapped for LoRA/DoRA versions, the base weights frozen with requires_grad = False, the
# trainable parameter names and counts printed, then a short training run with Adam.
# Differences: synthetic 10-class data instead of MNIST; a small MLP (20-32-16-10); 6 epochs;
# seeded.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALayer(nn.Module):
    def __init__(self, in_dim, out_dim, rank, alpha):
        super().__init__()
        std_dev = 1 / torch.sqrt(torch.tensor(rank).float())
        self.A = nn.Parameter(torch.randn(in_dim, rank) * std_dev)
        self.B = nn.Parameter(torch.zeros(rank, out_dim))
        self.alpha = alpha

    def forward(self, x):
        x = self.alpha * (x @ self.A @ self.B)
        return x


class LinearWithLoRA(nn.Module):
    def __init__(self, linear, rank, alpha):
        super().__init__()
        self.linear = linear
        self.lora = LoRALayer(linear.in_features, linear.out_features, rank, alpha)

    def forward(self, x):
        return self.linear(x) + self.lora(x)


class LinearWithLoRAMerged(nn.Module):
    def __init__(self, linear, rank, alpha):
        super().__init__()
        self.linear = linear
        self.lora = LoRALayer(linear.in_features, linear.out_features, rank, alpha)

    def forward(self, x):
        lora = self.lora.A @ self.lora.B
        combined_weight = self.linear.weight + self.lora.alpha * lora.T
        return F.linear(x, combined_weight, self.linear.bias)


class LinearWithDoRAMerged(nn.Module):
    def __init__(self, linear, rank, alpha):
        super().__init__()
        self.linear = linear
        self.lora = LoRALayer(linear.in_features, linear.out_features, rank, alpha)
        self.m = nn.Parameter(self.linear.weight.norm(p=2, dim=0, keepdim=True))

    def forward(self, x):
        lora = self.lora.A @ self.lora.B
        numerator = self.linear.weight + self.lora.alpha * lora.T
        denominator = numerator.norm(p=2, dim=0, keepdim=True)
        directional_component = numerator / denominator
        new_weight = self.m * directional_component
        return F.linear(x, new_weight, self.linear.bias)


torch.manual_seed(123)
layer = nn.Linear(10, 2)
x = torch.randn((1, 10))
print(x)
print(layer)
print("Original output:", layer(x))
layer_lora_1 = LinearWithLoRA(layer, rank=2, alpha=4)
print("LoRA output:", layer_lora_1(x))
layer_lora_2 = LinearWithLoRAMerged(layer, rank=2, alpha=4)
print("LoRA output:", layer_lora_2(x))
layer_dora = LinearWithDoRAMerged(layer, rank=2, alpha=4)
print("DoRA output:", layer_dora(x))
print(layer_dora.m, layer_dora.m.shape)
with torch.no_grad():
    layer_lora_1.lora.B.normal_()
    layer_lora_2.lora.B.copy_(layer_lora_1.lora.B)
    layer_lora_2.lora.A.copy_(layer_lora_1.lora.A)
print("LoRA output after B changes:", layer_lora_1(x), layer_lora_2(x))
print(torch.allclose(layer_lora_1(x), layer_lora_2(x), atol=1e-6))


class MultilayerPerceptron(nn.Module):
    def __init__(self, num_features, num_hidden_1, num_hidden_2, num_classes):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(num_features, num_hidden_1),
            nn.ReLU(),
            nn.Linear(num_hidden_1, num_hidden_2),
            nn.ReLU(),
            nn.Linear(num_hidden_2, num_classes),
        )

    def forward(self, x):
        return self.layers(x)


num_features, num_hidden_1, num_hidden_2, num_classes = 20, 32, 16, 10
torch.manual_seed(1)
X_train = torch.randn(256, num_features)
true_w = torch.randn(num_features, num_classes)
y_train = (X_train @ true_w + 0.5 * torch.randn(256, num_classes)).argmax(dim=1)
X_test = torch.randn(64, num_features)
y_test = (X_test @ true_w).argmax(dim=1)


def compute_accuracy(model, X, y):
    model.eval()
    with torch.no_grad():
        logits = model(X)
        predicted_labels = torch.argmax(logits, 1)
        correct_pred = (predicted_labels == y).sum()
    return correct_pred.float() / y.size(0) * 100


def train(num_epochs, model, optimizer, X, y, batch_size=64):
    for epoch in range(num_epochs):
        model.train()
        perm = torch.randperm(X.size(0))
        for batch_idx in range(0, X.size(0), batch_size):
            idx = perm[batch_idx:batch_idx + batch_size]
            logits = model(X[idx])
            loss = F.cross_entropy(logits, y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if not batch_idx // batch_size % 2:
                print(f"Epoch: {epoch + 1:03d}/{num_epochs:03d} | Batch {batch_idx // batch_size:03d} | Loss: {loss:.4f}")
        print(f"Epoch: {epoch + 1:03d}/{num_epochs:03d} train acc.: {compute_accuracy(model, X, y):.2f}%")


torch.manual_seed(123)
model = MultilayerPerceptron(num_features, num_hidden_1, num_hidden_2, num_classes)
print(model)
optimizer_pretrained = torch.optim.Adam(model.parameters(), lr=0.005)
train(4, model, optimizer_pretrained, X_train, y_train)
print(f"Test accuracy: {compute_accuracy(model, X_test, y_test):.2f}%")

import copy

for name, wrapper in [("LoRA", LinearWithLoRAMerged), ("DoRA", LinearWithDoRAMerged)]:
    model_adapted = copy.deepcopy(model)
    model_adapted.layers[0] = wrapper(model_adapted.layers[0], rank=4, alpha=8)
    model_adapted.layers[2] = wrapper(model_adapted.layers[2], rank=4, alpha=8)
    model_adapted.layers[4] = wrapper(model_adapted.layers[4], rank=4, alpha=8)
    print(model_adapted)
    print(f"Test accuracy orig model: {compute_accuracy(model, X_test, y_test):.2f}%")
    print(f"Test accuracy {name} model: {compute_accuracy(model_adapted, X_test, y_test):.2f}%")

    def freeze_linear_layers(model):
        for child in model.children():
            if isinstance(child, nn.Linear):
                for param in child.parameters():
                    param.requires_grad = False
            else:
                freeze_linear_layers(child)

    freeze_linear_layers(model_adapted)
    for pname, param in model_adapted.named_parameters():
        print(f"{pname}: {param.requires_grad}")
    trainable = sum(p.numel() for p in model_adapted.parameters() if p.requires_grad)
    total = sum(p.numel() for p in model_adapted.parameters())
    print(f"trainable {trainable} of {total} ({100 * trainable / total:.2f}%)")
    optimizer_adapted = torch.optim.Adam(filter(lambda p: p.requires_grad, model_adapted.parameters()), lr=0.005)
    torch.manual_seed(7)
    train(2, model_adapted, optimizer_adapted, X_train, y_train)
    print(f"Test accuracy {name} finetune: {compute_accuracy(model_adapted, X_test, y_test):.2f}%")
    print(model_adapted.layers[0].linear.weight.grad, model_adapted.layers[0].lora.B.grad.shape)
    print(len(optimizer_adapted.state), [tuple(v['exp_avg'].shape) for v in optimizer_adapted.state.values()])
print(math.isclose(compute_accuracy(model, X_test, y_test).item(), compute_accuracy(model, X_test, y_test).item()))
