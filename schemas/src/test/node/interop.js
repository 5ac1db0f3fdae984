'use strict';
// An independent Confluent wire-format client for NodeClientInteropTest: reads one JSON command
// on stdin, talks to the registry at its url, prints one JSON line on stdout.
//   {"command":"decode","url":U,"bytes":BASE64}                     -> {"id":N,"value":{...}}
//   {"command":"encode","url":U,"subject":S,"schema":T,"record":R}  -> {"id":N,"bytes":BASE64}
const { SchemaRegistry, SchemaType } = require('@kafkajs/confluent-schema-registry');

const LIMIT_MS = 30000;
setTimeout(() => {
  process.stderr.write(`interop.js gave up after ${LIMIT_MS} ms\n`);
  process.exit(3);
}, LIMIT_MS).unref();

async function run(command) {
  const registry = new SchemaRegistry({ host: command.url, retry: { retries: 1, initialRetryTimeInSecs: 0.1 } });
  switch (command.command) {
    case 'decode': {
      const bytes = Buffer.from(command.bytes, 'base64');
      const value = await registry.decode(bytes);
      return { id: bytes.readInt32BE(1), value };
    }
    case 'encode': {
      const { id } = await registry.register(
        { type: SchemaType.AVRO, schema: command.schema },
        { subject: command.subject },
      );
      const bytes = await registry.encode(id, command.record);
      return { id, bytes: bytes.toString('base64') };
    }
    default:
      throw new Error(`unknown command ${command.command}`);
  }
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', chunk => { input += chunk; });
process.stdin.on('end', () => {
  run(JSON.parse(input))
    .then(result => {
      process.stdout.write(JSON.stringify(result) + '\n');
      process.exit(0);
    })
    .catch(error => {
      process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
      process.exit(1);
    });
});
