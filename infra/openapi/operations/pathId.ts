// The 400 of the operations on /plants/{id} whose only input is the path.
export const badPathId = {
  description: 'The path id is not an integer in plain decimal digits within the id range.',
  examples: {
    badId: {
      summary: 'An id written as 007',
      message:
        'id in the path must be an integer from -9007199254740991 to 9007199254740991, written in plain decimal digits',
    },
  },
};
