# Corpus program, written for gradsh (no code copied). Modelled on the "Learn the Basics"
# tutorial "Save and Load the Model", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/basics/saveloadrun_tutorial.py
# Like the original: a model's learned parameters saved with torch.save(model.state_dict()),
# a fresh model of the same class loading them with
# load_state_dict(torch.load(..., weights_only=True)) followed by model.eval(); then the
# whole model saved with torch.save(model) and loaded back with weights_only=False.
# Differences: our own code; a small Linear/ReLU network instead of torchvision's VGG16 (no
# download); the files are in-memory io.BytesIO buffers; the loaded results are printed
# (the keys, the _IncompatibleKeys result, equality of outputs); seeded.
import io

import torch
from torch import nn

torch.manual_seed(0)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(16, 32),
            nn.ReLU(),
            nn.Linear(32, 4),
        )

    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))


model = NeuralNetwork()
weights_file = io.BytesIO()
torch.save(model.state_dict(), weights_file)
print(list(model.state_dict().keys()))

weights_file.seek(0)
model2 = NeuralNetwork()
state = torch.load(weights_file, weights_only=True)
print(type(state).__name__, [tuple(v.shape) for v in state.values()])
print(model2.load_state_dict(state))
print(model2.eval())
print(model2.training, model2.linear_relu_stack[0].training)

x = torch.rand(3, 4, 4)
with torch.no_grad():
    print(torch.equal(model.eval()(x), model2(x)))

model_file = io.BytesIO()
torch.save(model, model_file)
model_file.seek(0)
model3 = torch.load(model_file, weights_only=False)
print(type(model3).__name__)
print(model3)
with torch.no_grad():
    print(model3(x))
print(model3.linear_relu_stack[2].bias.requires_grad, model3.training)
