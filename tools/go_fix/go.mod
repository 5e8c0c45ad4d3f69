module paimon-conform/go_fix

go 1.22
