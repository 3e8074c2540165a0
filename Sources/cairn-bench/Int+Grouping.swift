extension Int {
    /// 100000 as `100,000`.
    func formatted() -> String {
        let digits = Array(String(self))
        var text = ""
        for (position, digit) in digits.enumerated() {
            if position > 0, (digits.count - position) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
