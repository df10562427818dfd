// One answer read from stdin before the REPL takes it over: whatever else arrived in the same chunk
// (piped input: the task lines after the answer) is put back, so the REPL still reads it.
export function askLine(question: string, io: { input: NodeJS.ReadStream | NodeJS.ReadableStream; output: (text: string) => void }): Promise<string | undefined> {
  io.output(question);
  const input = io.input as NodeJS.ReadableStream & { unshift(chunk: Buffer): void };
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const finish = (answer: string | undefined, rest?: Buffer) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.pause();
      if (rest && rest.length > 0) input.unshift(rest);
      resolve(answer);
    };
    const onData = (chunk: Buffer | string) => {
      buffered = Buffer.concat([buffered, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
      const newline = buffered.indexOf(10);
      if (newline >= 0) finish(buffered.subarray(0, newline).toString('utf8').replace(/\r$/, ''), buffered.subarray(newline + 1));
    };
    const onEnd = () => finish(buffered.length > 0 ? buffered.toString('utf8') : undefined);
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
  });
}

/** y / yes (any case) is yes; anything else, and no answer at all, is no. */
export function isYes(answer: string | undefined): boolean {
  return /^\s*y(es)?\s*$/i.test(answer ?? '');
}
