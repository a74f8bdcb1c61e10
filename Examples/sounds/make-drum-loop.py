# Writes drum-loop.wav (run from the repository root): a 4 s, 16 kHz mono loop at 120 bpm, kick on the
# beats, snare on the off-beats, a hat on every eighth between, over a swelling 110 + 165 Hz pad.
# Deterministic (seeded); the sound `thrum convert` turns into the README's example.
import math, random, struct, wave
rate = 16000
seconds = 4.0
random.seed(5)
n = int(rate * seconds)
out = [0.0] * n
def add(start, length, f):
    s = int(start * rate)
    for i in range(int(length * rate)):
        if s + i < n: out[s + i] += f(i / rate)
# a pad: 110 Hz + 165 Hz, swelling over the bar
for i in range(n):
    t = i / rate
    out[i] += 0.12 * (0.5 - 0.5 * math.cos(2 * math.pi * t / 4)) * (math.sin(2*math.pi*110*t) + 0.6*math.sin(2*math.pi*165*t))
beat = 0.5
for k in range(8):
    t0 = k * beat
    if k % 2 == 0:  # kick
        ph = [0.0]
        def kick(t, ph=ph):
            ph[0] += 2 * math.pi * (50 + 90 * math.exp(-t / 0.02)) / rate
            return 0.8 * min(1, t / 0.001) * math.exp(-t / 0.09) * math.sin(ph[0])
        add(t0, 1.0, kick)
    else:  # snare
        add(t0, 0.6, lambda t: min(1, t / 0.001) * (0.45 * random.uniform(-1, 1) * math.exp(-t / 0.05) + 0.3 * math.sin(2*math.pi*190*t) * math.exp(-t / 0.04)))
    for h in (0.25,):  # hats on the off-eighths
        add(t0 + h, 0.05, lambda t: 0.18 * random.uniform(-1, 1) * math.exp(-t / 0.008))
peak = max(abs(x) for x in out)
with wave.open('Examples/sounds/drum-loop.wav', 'wb') as w:
    w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate)
    w.writeframes(b''.join(struct.pack('<h', int(x / peak * 0.9 * 32767)) for x in out))
