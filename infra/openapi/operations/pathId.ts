// The 400 of the operations on /plants/{id} whose only input is the path.
import { PlantPath } from '#lib/plants/params.ts';
import { refusalOf } from '../shared.ts';

export const badPathId = {
  description: 'The path id is not an integer in plain decimal digits within the id range.',
  examples: {
    badId: {
      summary: 'An id written as 007',
      message: refusalOf(PlantPath, { id: '007' }),
    },
  },
};
