// openapi-typescript needs TypeScript 5's compiler API, which TypeScript 7 no longer ships: its
// imports of "typescript" get the typescript5 devDependency instead.
import { registerHooks } from 'node:module';

registerHooks({
  resolve: (specifier, context, nextResolve) =>
    specifier === 'typescript' && context.parentURL?.includes('/node_modules/openapi-typescript/')
      ? nextResolve('typescript5', context)
      : nextResolve(specifier, context),
});
