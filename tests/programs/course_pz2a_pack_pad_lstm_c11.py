# Corpus program, written for gradsh (no code copied). Modelled on Sung Kim's "PyTorch Zero To
# All" 13_4_pack_pad.py (itself after Tushar-N's gist on pack_padded_sequence):
# https://github.com/hunkim/PyTorchZeroToAll/blob/master/13_4_pack_pad.py
# Like the original: three words turned into index lists over a sorted character vocabulary
# with <pad> at 0; a LongTensor of lengths; a zero-padded long tensor filled row by row; rows
# sorted by length (sort(0, descending=True) and fancy indexing); transposed to (L, B);
# embedded; pack_padded_sequence with the lengths as a NumPy array; an LSTM over the packed
# batch; pad_packed_sequence; the last hidden state printed.
# Differences: a seed; torch.zeros(...).long() instead of Variable; the packed batch's
# batch_sizes and the unpacked lengths printed too.
import itertools

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

torch.manual_seed(1)


def flatten(lists):
    return list(itertools.chain.from_iterable(lists))


seqs = ['ghatmasala', 'nicela', 'chutpakodas']
vocab = ['<pad>'] + sorted(set(flatten(seqs)))

embedding_size = 3
embed = nn.Embedding(len(vocab), embedding_size)
lstm = nn.LSTM(embedding_size, 5)

vectorized_seqs = [[vocab.index(tok) for tok in seq] for seq in seqs]
print("vectorized_seqs", vectorized_seqs)
print([x for x in map(len, vectorized_seqs)])

seq_lengths = torch.LongTensor([x for x in map(len, vectorized_seqs)])
seq_tensor = torch.zeros((len(vectorized_seqs), seq_lengths.max())).long()
for idx, (seq, seqlen) in enumerate(zip(vectorized_seqs, seq_lengths)):
    seq_tensor[idx, :seqlen] = torch.LongTensor(seq)
print("seq_tensor", seq_tensor)

seq_lengths, perm_idx = seq_lengths.sort(0, descending=True)
seq_tensor = seq_tensor[perm_idx]
print("seq_tensor after sorting", seq_tensor)
print("perm_idx", perm_idx)

seq_tensor = seq_tensor.transpose(0, 1)
print("seq_tensor after transposing", seq_tensor.size(), seq_tensor.data)

embeded_seq_tensor = embed(seq_tensor)
print("seq_tensor after embeding", embeded_seq_tensor.size(), seq_tensor.data)

packed_input = pack_padded_sequence(embeded_seq_tensor, seq_lengths.cpu().numpy())
print("batch_sizes", packed_input.batch_sizes)
print("packed data", packed_input.data.shape)

packed_output, (ht, ct) = lstm(packed_input)
output, lengths = pad_packed_sequence(packed_output)
print("Lstm output", output.size(), output.data)
print("lengths", lengths)
print("Last output", ht[-1].size(), ht[-1].data)
print("Last cell", ct[-1])
