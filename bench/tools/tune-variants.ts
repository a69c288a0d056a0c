// Variants measured by bench/tools/tune.ts (edit freely; each call prints one line).
export default (m: (label: string, d: object, c?: object) => void) => {
  m('current defaults', {});
};
