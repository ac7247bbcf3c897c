# Corpus program, written for gradsh (no code copied). Modelled on Daniel Bourke's "Zero to
# Mastery Learn PyTorch", extras/pytorch_most_common_errors.ipynb ("The Three Most Common
# Errors in PyTorch": shape, device and datatype errors) (MIT):
# https://github.com/mrdbourke/pytorch-deep-learning/blob/main/extras/pytorch_most_common_errors.ipynb
# Like the original: elementwise vs matrix multiplication of two rand(3, 4) tensors and the
# failing matmul, fixes by transposing either side; a two-Linear model fed an unflattened
# [1, 28, 28] image (error), nn.Flatten, Linear(10, 10) after Flatten (error), Linear(784, 10),
# mismatched in_features between layers (error), nn.LazyLinear as the second and as every
# layer; RandomSampler(num_samples=10%) DataLoaders, a training loop printing the summed loss
# tensor with :.2f; a uint8 test image passed unbatched and then as the wrong dtype (error),
# fixed with unsqueeze(0).type(torch.float32), softmax/argmax prediction.
# Differences: synthetic FashionMNIST stand-in (600/100 random images, the test set's .data
# as uint8 like torchvision's), no plotting or tqdm, CPU only (the device errors cannot
# happen), errors are caught and printed; seeded.
import torch
from torch import nn
from torch.utils.data import DataLoader, RandomSampler, TensorDataset

torch.manual_seed(42)
print(f"PyTorch version major: {torch.__version__.split('.')[0]}")
tensor_1 = torch.rand(3, 4)
tensor_2 = torch.rand(3, 4)
print(tensor_1.shape)
print(tensor_2.shape)
tensor_3 = tensor_1 * tensor_2
tensor_4 = torch.mul(tensor_1, tensor_2)
print(repr(tensor_3 == tensor_4))
try:
    tensor_5 = tensor_1 @ tensor_2
except RuntimeError as e:
    print(f"RuntimeError: {e}")
tensor_6 = tensor_1.T @ tensor_2
print(f"Shape of input tensors: {tensor_1.T.shape} and {tensor_2.shape}")
print(f"Shape of output tensor: {tensor_6.shape}")
tensor_7 = tensor_1 @ tensor_2.T
print(f"Shape of input tensors: {tensor_1.shape} and {tensor_2.T.shape}")
print(f"Shape of output tensor: {tensor_7.shape}")
print(tensor_6)
print(tensor_7)

# Synthetic stand-in for FashionMNIST (ToTensor gives float images in [0, 1]).
class_names = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
               "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
train_images = torch.rand(600, 1, 28, 28)
train_labels = torch.randint(0, 10, (600,))
train_data = TensorDataset(train_images, train_labels)
test_uint8 = torch.randint(0, 256, (100, 28, 28), dtype=torch.uint8)
test_targets = torch.randint(0, 10, (100,))
test_data = TensorDataset(test_uint8.unsqueeze(1).float() / 255, test_targets)

image, label = train_data[0]
label = label.item()
print(f"Image shape: {image.shape} -> [batch, height, width]")
print(f"Label: {label}")
print((class_names, len(class_names)))

model_0 = nn.Sequential(
    nn.Linear(in_features=10, out_features=10),
    nn.Linear(in_features=10, out_features=10)
)
try:
    model_0(image)
except RuntimeError as e:
    print(f"RuntimeError: {e}")
flatten = nn.Flatten()
flattened_image = flatten(image)
print(f"Before flatten shape: {image.shape} -> [batch, height, width]")
print(f"After flatten shape: {flattened_image.shape} -> [batch, height*width]")
model_1 = nn.Sequential(
    nn.Flatten(),
    nn.Linear(in_features=10, out_features=10),
    nn.Linear(in_features=10, out_features=10)
)
try:
    model_1(image)
except RuntimeError as e:
    print(f"RuntimeError: {e}")
model_2 = nn.Sequential(
    nn.Flatten(),
    nn.Linear(in_features=784, out_features=10),
    nn.Linear(in_features=10, out_features=10)
)
print(repr(model_2(image)))
model_3 = nn.Sequential(
    nn.Flatten(),
    nn.Linear(in_features=784, out_features=10),
    nn.Linear(in_features=5, out_features=10)
)
try:
    model_3(image)
except RuntimeError as e:
    print(f"RuntimeError: {e}")
model_4 = nn.Sequential(
    nn.Flatten(),
    nn.Linear(in_features=784, out_features=10),
    nn.LazyLinear(out_features=10)
)
print(model_4)
print(repr(model_4(image)))
print(model_4)
model_5 = nn.Sequential(
    nn.Flatten(),
    nn.LazyLinear(out_features=10),
    nn.LazyLinear(out_features=10)
)
print(repr(model_5(image)))

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Current device: {device}")
model_6 = nn.Sequential(
    nn.Flatten(),
    nn.LazyLinear(out_features=10),
    nn.LazyLinear(out_features=10)
)
try:
    print(f"Model is on device: {next(model_6.parameters()).device}")
except Exception as e:
    print(f"{type(e).__name__}: {e}")
print(model_6)

train_sampler = RandomSampler(train_data, num_samples=int(0.1 * len(train_data)))
test_sampler = RandomSampler(test_data, num_samples=int(0.1 * len(test_data)))
print(f"Number of random training samples selected: {len(train_sampler)}/{len(train_data)}")
print(f"Number of random testing samples selected: {len(test_sampler)}/{len(test_data)}")
BATCH_SIZE = 32
train_dataloader = DataLoader(dataset=train_data, batch_size=BATCH_SIZE, sampler=train_sampler)
test_dataloader = DataLoader(dataset=test_data, batch_size=BATCH_SIZE, sampler=test_sampler)
print(f"Number of batches in train_dataloader: {len(train_dataloader)} batches of size {BATCH_SIZE}")
print(f"Number of batches in test_dataloader: {len(test_dataloader)} batch of size {BATCH_SIZE}")
model_6(image.unsqueeze(0))
print(f"Model is on device: {next(model_6.parameters()).device}")
print(model_6)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(lr=0.01, params=model_6.parameters())
epochs = 5
for epoch in range(epochs):
    train_loss = 0
    for X, y in train_dataloader:
        X, y = X.to(device), y.to(device)
        y_pred = model_6(X)
        loss = loss_fn(y_pred, y)
        train_loss += loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"Epoch: {epoch} | Training loss: {train_loss:.2f}")
print(repr(train_loss))

test_image, test_label = test_uint8[0], test_targets[0]
print(f"Test image shape: {test_image.shape}")
print(f"Test image label: {test_label}")
try:
    model_6(test_image)
except RuntimeError as e:
    print(f"RuntimeError: {e}")
original_input_shape = test_image.shape
updated_input_shape = test_image.unsqueeze(dim=0).shape
print(f"Original input data shape: {original_input_shape} -> [height, width]")
print(f"Updated input data shape (with added batch dimension): {updated_input_shape} -> [batch, height, width]")
try:
    model_6(test_image.unsqueeze(dim=0).to(device))
except RuntimeError as e:
    print(f"RuntimeError: {e}")
train_image_batch, train_label_batch = next(iter(train_dataloader))
train_image_single, train_label_single = train_image_batch[0], train_label_batch[0]
print(f"Datatype of training data: {train_image_single.dtype}")
print(f"Original datatype: {test_image.unsqueeze(dim=0).dtype}")
print(f"Changing the datatype: {test_image.unsqueeze(dim=0).type(torch.float32).dtype}")
model_6.cpu()
pred_on_cpu = model_6(test_image.unsqueeze(dim=0).type(torch.float32))
print(repr(pred_on_cpu))
pred_probs = torch.softmax(pred_on_cpu, dim=1)
pred_label = torch.argmax(pred_probs, dim=1)
print(f"Test label: {test_label}")
print(f"Pred label: {pred_label}")
print(f"Is the prediction correct? {pred_label.item() == test_label}")
