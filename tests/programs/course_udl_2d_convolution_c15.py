# Corpus program, written for gradsh (no code copied). Modelled on Simon Prince's
# "Understanding Deep Learning" notebook 10.3 "2D Convolution":
# https://github.com/udlbook/udlbook/blob/main/Notebooks/Chap10/10_3_2D_Convolution.ipynb
# Like the notebook: np.set_printoptions(precision=3, floatmode="fixed") and
# torch.set_printoptions(precision=3); conv_pytorch converts float64 NumPy arrays with
# torch.from_numpy, calls torch.nn.functional.conv2d(stride, padding) and returns .numpy();
# the notebook's four NumPy loop convolutions (one channel; with stride; several input and
# output channels; a batch), the exercises answered, each compared with PyTorch's result
# for np.random.seed(1) inputs drawn with np.random.normal; the results printed as arrays.
# Differences: the four loop versions folded into one general function (the fourth);
# the PyTorch results also printed as tensors (float64 reprs at precision 3) and the
# largest difference from the loops printed; one extra case with dilation.
import numpy as np
import torch

np.set_printoptions(precision=3, floatmode="fixed")
torch.set_printoptions(precision=3)


def conv_pytorch(image, conv_weights, stride=1, pad=1, dilation=1):
    image_tensor = torch.from_numpy(image)
    conv_weights_tensor = torch.from_numpy(conv_weights)
    output_tensor = torch.nn.functional.conv2d(image_tensor, conv_weights_tensor, stride=stride,
                                               padding=pad, dilation=dilation)
    print(output_tensor.dtype, output_tensor.shape)
    print(output_tensor[0, 0, :2])
    return output_tensor.numpy()


def conv_numpy_4(image, weights, stride=1, pad=1):
    if pad != 0:
        image = np.pad(image, ((0, 0), (0, 0), (pad, pad), (pad, pad)), 'constant')
    batchSize, channelsIn, imageHeightIn, imageWidthIn = image.shape
    channelsOut, channelsIn, kernelHeight, kernelWidth = weights.shape
    imageHeightOut = np.floor(1 + (imageHeightIn - kernelHeight) / stride).astype(int)
    imageWidthOut = np.floor(1 + (imageWidthIn - kernelWidth) / stride).astype(int)
    out = np.zeros((batchSize, channelsOut, imageHeightOut, imageWidthOut), dtype=np.float32)
    for c_batch in range(batchSize):
        for c_y in range(imageHeightOut):
            for c_x in range(imageWidthOut):
                for c_channel_out in range(channelsOut):
                    for c_channel_in in range(channelsIn):
                        for c_kernel_y in range(kernelHeight):
                            for c_kernel_x in range(kernelWidth):
                                this_pixel_value = image[c_batch, c_channel_in,
                                                         c_y * stride + c_kernel_y,
                                                         c_x * stride + c_kernel_x]
                                this_weight = weights[c_channel_out, c_channel_in,
                                                      c_kernel_y, c_kernel_x]
                                out[c_batch, c_channel_out, c_y, c_x] += np.sum(this_pixel_value * this_weight)
    return out


cases = [
    dict(n_batch=1, image_height=4, image_width=6, channels_in=1, kernel_size=3, channels_out=1, stride=1),
    dict(n_batch=1, image_height=12, image_width=10, channels_in=1, kernel_size=3, channels_out=1, stride=2),
    dict(n_batch=1, image_height=4, image_width=6, channels_in=5, kernel_size=3, channels_out=2, stride=1),
    dict(n_batch=2, image_height=4, image_width=6, channels_in=5, kernel_size=3, channels_out=2, stride=1),
]
for c in cases:
    np.random.seed(1)
    input_image = np.random.normal(size=(c['n_batch'], c['channels_in'], c['image_height'], c['image_width']))
    conv_weights = np.random.normal(size=(c['channels_out'], c['channels_in'], c['kernel_size'], c['kernel_size']))
    conv_results_pytorch = conv_pytorch(input_image, conv_weights, stride=c['stride'], pad=1)
    print("PyTorch Results")
    print(conv_results_pytorch)
    print("Your results")
    conv_results_numpy = conv_numpy_4(input_image, conv_weights, stride=c['stride'], pad=1)
    print(conv_results_numpy)
    print("max difference %.3e" % np.abs(conv_results_pytorch - conv_results_numpy).max())

np.random.seed(2)
image = np.random.normal(size=(1, 3, 9, 9))
weights = np.random.normal(size=(4, 3, 3, 3))
print(conv_pytorch(image, weights, stride=1, pad=2, dilation=2)[0, :, 0])
print(conv_pytorch(image.astype(np.float32), weights.astype(np.float32), stride=2, pad=0)[0, 1])
