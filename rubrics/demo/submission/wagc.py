"""Warmup-Free Adaptive Gradient Clipping (Section 3 of the demo paper): a reference sketch."""


class WAGC:
    def __init__(self, params, beta=0.99, c=2.0, free_steps=20):
        self.groups = list(params)
        self.beta, self.c, self.free_steps = beta, c, free_steps
        self.ema = [0.0 for _ in self.groups]
        self.step_count = 0

    def clip(self, grad_norms):
        """Returns the scale of each group's gradient and updates the EMA with the clipped norm."""
        self.step_count += 1
        scales = []
        for i, norm in enumerate(grad_norms):
            bias = 1 - self.beta ** self.step_count
            tau = self.c * self.ema[i] / bias if self.step_count > self.free_steps else float("inf")
            clipped = min(norm, tau)
            scales.append(min(1.0, tau / (norm + 1e-6)))
            self.ema[i] = self.beta * self.ema[i] + (1 - self.beta) * clipped
        return scales
