# context: class=BankAccount methods=deposit globals=MAX_BALANCE
def withdraw(self, amount, note="cash"):
    if amount <= 0 or amount > self.balance:
        raise ValueError("Invalid amount")
    fee = amount * 0.01 if amount > 100 else 0
    self.balance -= amount + fee
    total = self.balance
    while total > MAX_BALANCE:
        total = total - 1
    self.history.append((note, -amount, True))
    return total
