# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's
# deeplearning-models notebook "Perceptron" (MIT):
# https://github.com/rasbt/deeplearning-models/blob/master/pytorch_ipynb/basic-ml/perceptron.ipynb
# Like the original: a toy two-feature, two-class dataset shuffled with
# np.random.RandomState(123), split 70 / 30 and standardised with the training mean / std;
# the Perceptron class (zeros weights (num_features, 1) and bias, forward with torch.add of
# torch.mm and the bias and custom_where(linear > 0., 1, 0).float(), backward returning the
# errors, train updating the weights in place per example with view(), evaluate with
# torch.sum(predictions == y).float() / y.size()[0]); the printed parameters
# ('  Weights: %s' % tensor), test accuracy '%.2f%%', and the decision boundary end points.
# Differences: the notebook's toydata file is replaced by 100 Gaussian points; the notebook
# (written for PyTorch 1.0) computes 1 - cond on a bool tensor, which current PyTorch
# refuses: the error is printed, and custom_where then casts cond to float first; 5 epochs.
import numpy as np
import torch

rng = np.random.RandomState(1)
X = np.concatenate([rng.normal([1.0, 1.5], 1.0, size=(50, 2)),
                    rng.normal([-1.0, -1.5], 1.0, size=(50, 2))])
y = np.array([1] * 50 + [0] * 50)
print('Class label counts:', np.bincount(y))
print('X.shape:', X.shape)
print('y.shape:', y.shape)
shuffle_idx = np.arange(y.shape[0])
shuffle_rng = np.random.RandomState(123)
shuffle_rng.shuffle(shuffle_idx)
X, y = X[shuffle_idx], y[shuffle_idx]
X_train, X_test = X[shuffle_idx[:70]], X[shuffle_idx[70:]]
y_train, y_test = y[shuffle_idx[:70]], y[shuffle_idx[70:]]
mu, sigma = X_train.mean(axis=0), X_train.std(axis=0)
X_train = (X_train - mu) / sigma
X_test = (X_test - mu) / sigma

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def custom_where_original(cond, x_1, x_2):
    return (cond * x_1) + ((1 - cond) * x_2)


def custom_where(cond, x_1, x_2):
    cond = cond.float()
    return (cond * x_1) + ((1 - cond) * x_2)


class Perceptron():
    def __init__(self, num_features, where=custom_where):
        self.num_features = num_features
        self.weights = torch.zeros(num_features, 1, dtype=torch.float32, device=device)
        self.bias = torch.zeros(1, dtype=torch.float32, device=device)
        self.where = where

    def forward(self, x):
        linear = torch.add(torch.mm(x, self.weights), self.bias)
        predictions = self.where(linear > 0., 1, 0).float()
        return predictions

    def backward(self, x, y):
        predictions = self.forward(x)
        errors = y - predictions
        return errors

    def train(self, x, y, epochs):
        for e in range(epochs):
            for i in range(y.size()[0]):
                errors = self.backward(x[i].view(1, self.num_features), y[i]).view(-1)
                self.weights += (errors * x[i]).view(self.num_features, 1)
                self.bias += errors

    def evaluate(self, x, y):
        predictions = self.forward(x).view(-1)
        accuracy = torch.sum(predictions == y).float() / y.size()[0]
        return accuracy


X_train_tensor = torch.tensor(X_train, dtype=torch.float32, device=device)
y_train_tensor = torch.tensor(y_train, dtype=torch.float32, device=device)
try:
    Perceptron(num_features=2, where=custom_where_original).train(X_train_tensor,
                                                                 y_train_tensor, epochs=1)
except RuntimeError as e:
    print("RuntimeError:", e)
cond = torch.tensor([True, False])
print(cond * 1, (cond * 1).dtype, ~cond, cond.logical_not().long())

ppn = Perceptron(num_features=2)
ppn.train(X_train_tensor, y_train_tensor, epochs=5)
print('Model parameters:')
print('  Weights: %s' % ppn.weights)
print('  Bias: %s' % ppn.bias)
X_test_tensor = torch.tensor(X_test, dtype=torch.float32, device=device)
y_test_tensor = torch.tensor(y_test, dtype=torch.float32, device=device)
test_acc = ppn.evaluate(X_test_tensor, y_test_tensor)
print('Test set accuracy: %.2f%%' % (test_acc * 100))
w, b = ppn.weights, ppn.bias
x_min = -2
y_min = ((-(w[0] * x_min) - b[0]) / w[1])
x_max = 2
y_max = ((-(w[0] * x_max) - b[0]) / w[1])
print(x_min, y_min, x_max, y_max)
print(ppn.forward(X_test_tensor[:6]).view(-1), y_test_tensor[:6])
