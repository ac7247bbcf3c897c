# Corpus program, written for gradsh (no code copied). Modelled on two scripts of L1aoXingyu's
# pytorch-beginner (written for PyTorch 0.x):
# https://github.com/L1aoXingyu/pytorch-beginner/blob/master/11-backward/backward.py
# https://github.com/L1aoXingyu/pytorch-beginner/blob/master/06-Natural%20Language%20Process/N-Gram.py
# Like the sources: `from torch.autograd import Variable as v`, a mean of 3 * (a + 3)**2 and
# its gradient; the 0.x idiom out.data[0] on a 0-d result; a non-scalar output built by
# assigning m[0, 0] ** 2 and m[0, 1] ** 3 into a zeros Variable (CopySlices) and backward
# with a gradient argument; a Jacobian column by column through backward(...,
# retain_variables=True) (the 0.x keyword); z = x.mm(y) and its Jacobian the same way. The
# N-gram language model on Shakespeare's Sonnet 2: trigrams, nn.Embedding, the context
# flattened with view(1, -1), F.log_softmax without dim (deprecated implicit dim), NLLLoss,
# SGD(lr=1e-3), 'Loss: {:.6f}' per epoch, and the prediction for trigram[3].
# Where the 0.x code fails under PyTorch 2.x (indexing a 0-d tensor, retain_variables) the
# error is caught and printed and the current equivalent (item(), retain_graph=True) runs.
# Differences: the vocabulary sorted (the source iterates a set); seeded; 10 epochs of
# training with a larger learning rate (0.05) instead of 100 at 1e-3, the loss printed every
# other epoch.
import torch as t
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.autograd import Variable as v

a = v(t.FloatTensor([2, 3]), requires_grad=True)
b = a + 3
c = b * b * 3
out = c.mean()
out.backward()
print('*' * 10)
print('=====simple gradient======')
print('input')
print(a.data)
print('compute result is')
try:
    print(out.data[0])
except IndexError as e:
    print('IndexError:', e)
    print(out.data.item(), out.data, out)
print('input gradients are')
print(a.grad.data)

m = v(t.FloatTensor([[2, 3]]), requires_grad=True)
n = v(t.zeros(1, 2))
print(n.requires_grad, type(n).__name__)
n[0, 0] = m[0, 0] ** 2
n[0, 1] = m[0, 1] ** 3
print(n, n.grad_fn.next_functions)
n.backward(t.FloatTensor([[1, 1]]))
print('*' * 10)
print('=====non scalar output======')
print('input')
print(m.data)
print('input gradients are')
print(m.grad.data)

j = t.zeros(2, 2)
k = v(t.zeros(1, 2))
m.grad.data.zero_()
k[0, 0] = m[0, 0] ** 2 + 3 * m[0, 1]
k[0, 1] = m[0, 1] ** 2 + 2 * m[0, 0]
try:
    k.backward(t.FloatTensor([[1, 0]]), retain_variables=True)
except TypeError as e:
    print('TypeError:', e)
    k.backward(t.FloatTensor([[1, 0]]), retain_graph=True)
j[:, 0] = m.grad.data
m.grad.data.zero_()
k.backward(t.FloatTensor([[0, 1]]))
j[:, 1] = m.grad.data
print('jacobian matrix is')
print(j)
try:
    k.backward(t.FloatTensor([[0, 1]]))
except RuntimeError as e:
    print('RuntimeError:', str(e).split('.')[0])

x = t.FloatTensor([2, 1]).view(1, 2)
x = v(x, requires_grad=True)
y = v(t.FloatTensor([[1, 2], [3, 4]]))
z = t.mm(x, y)
jacobian = t.zeros((2, 2))
z.backward(t.FloatTensor([[1, 0]]), retain_graph=True)
jacobian[:, 0] = x.grad.data
x.grad.data.zero_()
z.backward(t.FloatTensor([[0, 1]]))
jacobian[:, 1] = x.grad.data
print('=========jacobian========')
print('x')
print(x.data)
print('y')
print(y.data)
print('compute result')
print(z.data)
print('jacobian matrix is')
print(jacobian)
print(torch.autograd.functional.jacobian(lambda x: x.mm(y), x.detach()).squeeze())

CONTEXT_SIZE = 2
test_sentence = """When forty winters shall besiege thy brow,
And dig deep trenches in thy beauty's field,
Thy youth's proud livery so gazed on now,
Will be a totter'd weed of small worth held:
Then being asked, where all thy beauty lies,
Where all the treasure of thy lusty days;
To say, within thine own deep sunken eyes,
Were an all-eating shame, and thriftless praise.
How much more praise deserv'd thy beauty's use,
If thou couldst answer 'This fair child of mine
Shall sum my count, and make my old excuse,'
Proving his beauty by succession thine!
This were to be new made when thou art old,
And see thy blood warm when thou feel'st it cold.""".split()
trigram = [((test_sentence[i], test_sentence[i + 1]), test_sentence[i + 2])
           for i in range(len(test_sentence) - 2)]
vocb = sorted(set(test_sentence))
word_to_idx = {word: i for i, word in enumerate(vocb)}
idx_to_word = {word_to_idx[word]: word for word in word_to_idx}
print(len(trigram), len(vocb), trigram[:3])


class NgramModel(nn.Module):
    def __init__(self, vocb_size, context_size, n_dim):
        super(NgramModel, self).__init__()
        self.n_word = vocb_size
        self.embedding = nn.Embedding(self.n_word, n_dim)
        self.linear1 = nn.Linear(context_size * n_dim, 128)
        self.linear2 = nn.Linear(128, self.n_word)

    def forward(self, x):
        emb = self.embedding(x)
        emb = emb.view(1, -1)
        out = self.linear1(emb)
        out = F.relu(out)
        out = self.linear2(out)
        log_prob = F.log_softmax(out)
        return log_prob


torch.manual_seed(0)
ngrammodel = NgramModel(len(word_to_idx), CONTEXT_SIZE, 100)
print(ngrammodel)
criterion = nn.NLLLoss()
optimizer = optim.SGD(ngrammodel.parameters(), lr=0.05)
for epoch in range(10):
    running_loss = 0
    for data in trigram:
        word, label = data
        word = v(torch.LongTensor([word_to_idx[i] for i in word]))
        label = v(torch.LongTensor([word_to_idx[label]]))
        out = ngrammodel(word)
        loss = criterion(out, label)
        running_loss += loss.data.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch % 2 == 1:
        print('epoch: {}'.format(epoch + 1))
        print('*' * 10)
        print('Loss: {:.6f}'.format(running_loss / len(word_to_idx)))

word, label = trigram[3]
word = v(torch.LongTensor([word_to_idx[i] for i in word]))
out = ngrammodel(word)
_, predict_label = torch.max(out, 1)
print(predict_label, predict_label.shape)
try:
    predict_word = idx_to_word[predict_label.data[0][0]]
except IndexError as e:
    print('IndexError:', e)
    predict_word = idx_to_word[predict_label.data[0].item()]
print('real word is {}, predict word is {}'.format(label, predict_word))
print(out.exp().topk(3))
