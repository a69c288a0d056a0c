export default (m: (label: string, d: object, c?: object) => void) => {
  const d = { industry: 0.15, employees: 0.075, region: 0.075, products: 0.7, productsCosine: 0 };
  m('ccut ' + process.env.CCUT, d);
  m('ccut c emp .25 ' + process.env.CCUT, d, { industry: 0.4, employees: 0.25, revenue: 0, region: 0.05, products: 0.1, categories: 0.05, terms: 0.15 });
};
