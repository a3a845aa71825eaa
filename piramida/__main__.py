from piramida.cli import main

main()
