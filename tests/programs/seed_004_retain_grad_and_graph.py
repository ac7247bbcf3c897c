# Source: source article 004 (../shared/seeds/004_e063c9f94441c4a9.txt, gradient retention,
# zeroing, detaching, accumulation); ours: its "梯度保留" (gradient retention) examples
# written out as one program.
# Changes: the two REPL examples (`>>>`, each displayed value printed with print(...)) and
# the retain_graph script are joined; the article's "d.backward() 只能计算一次" (a second
# backward fails with the RuntimeError it quotes) is run and its error caught and printed.
import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0)
c=a*a*5
d=c*c*b
d.backward()
print(a.grad)

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0)
c=a*a*5
d=c*c*b
c.retain_grad()
d.retain_grad()
d.backward()
print(a.grad)         #求导后2*b*c*10*a,把c用a*a*5来代,即2*b*a*a*5*10*a为2400
print(c.grad)        #求导后2*b*c,把c用a*a*5来代，即2*b*a*a*5为120
print(d.grad)

try:
    d.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0)
c=a*a*5
d=c*c*b
c.retain_grad()
d.retain_grad()
d.backward(retain_graph=True)
print(a.grad)
print(c.grad)
print(d.grad)
'''
输出
tensor(2400.)
tensor(120.)
tensor(1.)
'''
d.backward()
print(a.grad)
print(c.grad)
print(d.grad)
'''
输出
tensor(4800.)
tensor(240.)
tensor(2.)
'''
