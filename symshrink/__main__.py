from symshrink.cli import main

main()
