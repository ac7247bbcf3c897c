# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka et al.,
# "Machine Learning with PyTorch and Scikit-Learn", chapter 16 part 1 "Self-attention"
# (MIT): https://github.com/rasbt/machine-learning-book/blob/main/ch16/ch16-part1-self-attention.py
# Like the original: an integer "sentence" embedded by nn.Embedding(10, 16) (seed 123) and
# detached; omega from a double loop of torch.dot and from matmul, compared with allclose;
# softmax attention weights and their row sums; a context vector by a loop and by matmul;
# scaled dot-product attention with torch.rand query/key/value matrices (query_2, keys,
# omega_23, omega_2, softmax(omega_2 / d**0.5, dim=0), the context vector); multi-head
# versions with (h, d, d) weight stacks, repeat(8, 1, 1), torch.bmm and permute, matmul, and
# the final Linear(8*16, 16) over a flattened random z.
# Differences: the notebook's displayed values are printed.
import torch
import torch.nn.functional as F

sentence = torch.tensor([0, 7, 1, 2, 5, 6, 4, 3])
print(sentence)
torch.manual_seed(123)
embed = torch.nn.Embedding(10, 16)
embedded_sentence = embed(sentence).detach()
print(embedded_sentence.shape)
omega = torch.empty(8, 8)
for i, x_i in enumerate(embedded_sentence):
    for j, x_j in enumerate(embedded_sentence):
        omega[i, j] = torch.dot(x_i, x_j)
omega_mat = embedded_sentence.matmul(embedded_sentence.T)
print(torch.allclose(omega_mat, omega), (omega_mat - omega).abs().max())
attention_weights = F.softmax(omega, dim=1)
print(attention_weights.shape, attention_weights.sum(dim=1))
x_2 = embedded_sentence[1, :]
context_vec_2 = torch.zeros(x_2.shape)
for j in range(8):
    x_j = embedded_sentence[j, :]
    context_vec_2 += attention_weights[1, j] * x_j
print(context_vec_2)
context_vectors = torch.matmul(attention_weights, embedded_sentence)
print(torch.allclose(context_vec_2, context_vectors[1]))

torch.manual_seed(123)
d = embedded_sentence.shape[1]
U_query = torch.rand(d, d)
U_key = torch.rand(d, d)
U_value = torch.rand(d, d)
x_2 = embedded_sentence[1]
query_2 = U_query.matmul(x_2)
key_2 = U_key.matmul(x_2)
value_2 = U_value.matmul(x_2)
keys = U_key.matmul(embedded_sentence.T).T
print(torch.allclose(key_2, keys[1]))
values = U_value.matmul(embedded_sentence.T).T
print(torch.allclose(value_2, values[1]))
omega_23 = query_2.dot(keys[2])
print(omega_23)
omega_2 = query_2.matmul(keys.T)
print(omega_2)
attention_weights_2 = F.softmax(omega_2 / d ** 0.5, dim=0)
print(attention_weights_2)
context_vector_2 = attention_weights_2.matmul(values)
print(context_vector_2)

torch.manual_seed(123)
d = embedded_sentence.shape[1]
one_U_query = torch.rand(d, d)
h = 8
multihead_U_query = torch.rand(h, d, d)
multihead_U_key = torch.rand(h, d, d)
multihead_U_value = torch.rand(h, d, d)
multihead_query_2 = multihead_U_query.matmul(x_2)
print(multihead_query_2.shape)
multihead_key_2 = multihead_U_key.matmul(x_2)
multihead_value_2 = multihead_U_value.matmul(x_2)
print(multihead_key_2[2])
stacked_inputs = embedded_sentence.T.repeat(8, 1, 1)
print(stacked_inputs.shape)
multihead_keys = torch.bmm(multihead_U_key, stacked_inputs)
print(multihead_keys.shape)
multihead_keys = multihead_keys.permute(0, 2, 1)
print(multihead_keys.shape)
print(multihead_keys[2, 1])
multihead_values = torch.matmul(multihead_U_value, stacked_inputs)
multihead_values = multihead_values.permute(0, 2, 1)
print(multihead_values[0, 0])
multihead_z_2 = torch.rand(8, 16)
linear = torch.nn.Linear(8 * 16, 16)
context_vector_2 = linear(multihead_z_2.flatten())
print(context_vector_2.shape, context_vector_2)
