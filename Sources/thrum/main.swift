import ThrumCommands

ThrumCommand.main()
