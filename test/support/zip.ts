// Reads a zip archive (a deployment package), so tests need no unzip binary.
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;

/** Every file in the zip at `path`, by name, with its contents read on demand. */
const zipEntries = (path: string): Map<string, () => Buffer> => {
  const zip = readFileSync(path);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || zip.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY)
    throw new Error(`${path} is not a zip`);
  const entries = new Map<string, () => Buffer>();
  let at = zip.readUInt32LE(end + 16);
  for (let i = zip.readUInt16LE(end + 10); i > 0; i--) {
    if (zip.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY)
      throw new Error(`${path}: broken central directory`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    entries.set(zip.toString('utf8', at + 46, at + 46 + nameLength), () => {
      const dataStart =
        localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const data = zip.subarray(dataStart, dataStart + compressedSize);
      return method === 0 ? data : inflateRawSync(data);
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
};

/** The names of the files in the zip at `path`. */
export const zipEntryNames = (path: string): string[] => [...zipEntries(path).keys()];

/** The contents of `name` in the zip at `path`, or undefined when it holds no such file. */
export const readZipEntry = (path: string, name: string): Buffer | undefined =>
  zipEntries(path).get(name)?.();
