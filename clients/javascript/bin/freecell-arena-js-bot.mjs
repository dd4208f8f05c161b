#!/usr/bin/env node
// The example bot as a command, where the package is installed: `freecell-arena-js-bot ws://HOST:PORT/ --quick freecell`.
import { runCommand } from '../bot.mjs';

runCommand();
