// A REST proxy for the tests: @discordjs/proxy (installed by the test with npm) in front of the
// fake Discord at FAKE_DISCORD, keeping Discord's rate limits for every Bredon process that
// sends its requests here. Prints the port it listens on.
import { createServer } from 'node:http';
import { REST } from '@discordjs/rest';
import { proxyRequests } from '@discordjs/proxy';

const rest = new REST({ api: `${process.env.FAKE_DISCORD}/api`, version: '10', timeout: 30_000 });
const server = createServer(proxyRequests(rest));
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
