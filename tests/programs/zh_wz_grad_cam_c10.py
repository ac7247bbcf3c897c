# Corpus program, written for gradsh (no code copied). Modelled on the Grad-CAM code of
# WZMIAOMIAO's Chinese tutorial repository deep-learning-for-image-processing
# (https://github.com/WZMIAOMIAO/deep-learning-for-image-processing/blob/master/pytorch_classification/grad_cam/utils.py
# and main_cnn.py): ActivationsAndGradients registers a forward hook (saving the detached
# activation) and a full backward hook (prepending grad_output[0]) on each target layer;
# GradCAM puts the model in eval mode, takes the target category from the argmax of the
# logits when none is given, zero_grad()s, sums output[i, target[i]] into a loss, backward
# with retain_graph=True, computes weights = mean of the gradients over H and W, the weighted
# sum of the activations, zeroes negatives, min-max scales per image and averages over
# layers; it is used as a context manager whose __exit__ removes the hooks.
# Differences: a small seeded CNN and a random batch instead of a pretrained MobileNetV3 and a
# photo; scale_cam_image keeps the feature-map size (cv2.resize is not available) and the
# overlay step is left out; the hook handles and the hooked layer's output are printed.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class ActivationsAndGradients:
    def __init__(self, model, target_layers, reshape_transform):
        self.model = model
        self.gradients = []
        self.activations = []
        self.reshape_transform = reshape_transform
        self.handles = []
        for target_layer in target_layers:
            self.handles.append(target_layer.register_forward_hook(self.save_activation))
            self.handles.append(target_layer.register_full_backward_hook(self.save_gradient))

    def save_activation(self, module, input, output):
        activation = output
        if self.reshape_transform is not None:
            activation = self.reshape_transform(activation)
        self.activations.append(activation.cpu().detach())

    def save_gradient(self, module, grad_input, grad_output):
        grad = grad_output[0]
        if self.reshape_transform is not None:
            grad = self.reshape_transform(grad)
        self.gradients = [grad.cpu().detach()] + self.gradients

    def __call__(self, x):
        self.gradients = []
        self.activations = []
        return self.model(x)

    def release(self):
        for handle in self.handles:
            handle.remove()


class GradCAM:
    def __init__(self, model, target_layers, reshape_transform=None):
        self.model = model.eval()
        self.target_layers = target_layers
        self.activations_and_grads = ActivationsAndGradients(self.model, target_layers,
                                                             reshape_transform)

    @staticmethod
    def get_cam_weights(grads):
        return np.mean(grads, axis=(2, 3))

    @staticmethod
    def get_loss(output, target_category):
        loss = 0
        for i in range(len(target_category)):
            loss = loss + output[i, target_category[i]]
        return loss

    def get_cam_image(self, activations, grads):
        weights = self.get_cam_weights(grads)
        weighted_activations = weights[:, :, None, None] * activations
        return weighted_activations.sum(axis=1)

    def compute_cam_per_layer(self, input_tensor):
        activations_list = [a.cpu().data.numpy() for a in self.activations_and_grads.activations]
        grads_list = [g.cpu().data.numpy() for g in self.activations_and_grads.gradients]
        cam_per_target_layer = []
        for layer_activations, layer_grads in zip(activations_list, grads_list):
            cam = self.get_cam_image(layer_activations, layer_grads)
            cam[cam < 0] = 0
            scaled = self.scale_cam_image(cam)
            cam_per_target_layer.append(scaled[:, None, :])
        return cam_per_target_layer

    def aggregate_multi_layers(self, cam_per_target_layer):
        cam_per_target_layer = np.concatenate(cam_per_target_layer, axis=1)
        cam_per_target_layer = np.maximum(cam_per_target_layer, 0)
        result = np.mean(cam_per_target_layer, axis=1)
        return self.scale_cam_image(result)

    @staticmethod
    def scale_cam_image(cam, target_size=None):
        result = []
        for img in cam:
            img = img - np.min(img)
            img = img / (1e-7 + np.max(img))
            result.append(img)
        return np.float32(result)

    def __call__(self, input_tensor, target_category=None):
        output = self.activations_and_grads(input_tensor)
        print("output:", output)
        if isinstance(target_category, int):
            target_category = [target_category] * input_tensor.size(0)
        if target_category is None:
            target_category = np.argmax(output.cpu().data.numpy(), axis=-1)
            print("target_category:", target_category)
        else:
            assert (len(target_category) == input_tensor.size(0))
        self.model.zero_grad()
        loss = self.get_loss(output, target_category)
        print("loss:", loss)
        loss.backward(retain_graph=True)
        cam_per_layer = self.compute_cam_per_layer(input_tensor)
        return self.aggregate_multi_layers(cam_per_layer)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, exc_tb):
        self.activations_and_grads.release()
        if isinstance(exc_value, IndexError):
            print(f"An exception occurred in CAM with block: {exc_type}. Message: {exc_value}")
            return True


model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
    nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5))
target_layers = [model[3]]
input_tensor = torch.randn(2, 3, 6, 6)
with GradCAM(model=model, target_layers=target_layers) as cam:
    print(len(cam.activations_and_grads.handles), model[3]._forward_hooks.keys().__len__())
    grayscale_cam = cam(input_tensor=input_tensor, target_category=None)
    print(grayscale_cam.shape, grayscale_cam.dtype)
    print(np.round(grayscale_cam[0], 4))
    acts = cam.activations_and_grads.activations[0]
    grads = cam.activations_and_grads.gradients[0]
    print(acts.shape, grads.shape, acts.requires_grad, grads.requires_grad)
    print(grads[0, 0])
    grayscale_cam = cam(input_tensor=input_tensor, target_category=3)
    print(np.round(grayscale_cam[1], 4))
    print(model[3](torch.randn(1, 8, 2, 2)).grad_fn)
print(len(model[3]._forward_hooks), len(model[3]._backward_hooks))
print(model[0].weight.grad[0, 0])
with GradCAM(model=model, target_layers=[model[0], model[3]]) as cam:
    out = cam(input_tensor=input_tensor, target_category=[0, 4])
    print(np.round(out, 3))
    raise IndexError("target index out of range")
print("after the with block")
