module example.com/shop

go 1.26.0

require github.com/authvet/authvet v0.0.0

replace github.com/authvet/authvet => ../
