# Corpus program, written for gradsh (no code copied). Modelled on yunjey's pytorch-tutorial
# "01-basics/linear_regression" (MIT):
# https://github.com/yunjey/pytorch-tutorial/blob/master/tutorials/01-basics/linear_regression/main.py
# Like the original: the 15-point float32 numpy toy set, nn.Linear(1, 1), nn.MSELoss, SGD with
# lr=0.001, 60 epochs converting the arrays with torch.from_numpy each epoch, the loss printed
# every 5 epochs with '{:.4f}', then the fitted line computed with .detach().numpy() and the
# state_dict saved with torch.save.
# Differences: our own code; seeded; no matplotlib (the fitted values are printed instead of
# plotted); the checkpoint goes to an io.BytesIO and is loaded back into a fresh Linear.
import io

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
input_size, output_size, num_epochs, learning_rate = 1, 1, 60, 0.001

x_train = np.array([[3.3], [4.4], [5.5], [6.71], [6.93], [4.168], [9.779], [6.182], [7.59],
                    [2.167], [7.042], [10.791], [5.313], [7.997], [3.1]], dtype=np.float32)
y_train = np.array([[1.7], [2.76], [2.09], [3.19], [1.694], [1.573], [3.366], [2.596], [2.53],
                    [1.221], [2.827], [3.465], [1.65], [2.904], [1.3]], dtype=np.float32)

model = nn.Linear(input_size, output_size)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

for epoch in range(num_epochs):
    inputs = torch.from_numpy(x_train)
    targets = torch.from_numpy(y_train)
    outputs = model(inputs)
    loss = criterion(outputs, targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 5 == 0:
        print('Epoch [{}/{}], Loss: {:.4f}'.format(epoch + 1, num_epochs, loss.item()))

predicted = model(torch.from_numpy(x_train)).detach().numpy()
print(predicted.dtype, predicted.shape)
print(np.round(predicted[:5, 0], 4))
for xi, yi, pi in zip(x_train[:3, 0], y_train[:3, 0], predicted[:3, 0]):
    print(f"x={xi:.3f} y={yi:.3f} fitted={pi:.4f}")

buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
restored = nn.Linear(input_size, output_size)
restored.load_state_dict(torch.load(buffer))
print(restored.state_dict())
print(torch.equal(restored.weight, model.weight), torch.equal(restored.bias, model.bias))
