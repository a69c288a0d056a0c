// The category tree of the demo catalog (3 levels, ~150 categories), written as an
// indented outline. A leaf line carries its base adoption rate (share of mainstream
// mid-size companies using the category) and flags that bend it:
//   m  modern: leading adopters ×1.7, laggards ×0.4     l  legacy: the reverse
//   E  enterprise-skewed (rare in small firms)           S  small-business-skewed
//   i=a/b  industry-specific: only those industries adopt it (others ×0.002)
//   x=a/b  industry-boosted: those industries ×2.5
//   src=a/b  evidence sources that reveal it (else the top-level's)
//   n=A/B  product nouns for names ("Sales Cloud", "CRM")
// Industry keys are ind_* ids without the prefix.

export const CATEGORY_OUTLINE = `
Sales ; src=website/job_posting/partner_data
  CRM ; n=CRM/Sales Cloud/Pipeline
    Sales Force Automation ; 0.42 ; n=CRM/Sales Cloud/Pipeline
    Contact Management ; 0.18 ; S ; n=Contacts/Address Book
    Partner Relationship Management ; 0.05 ; E ; n=Partner Portal/PRM
  Sales Engagement ; 0.12 ; m ; n=Sequences/Engage/Outreach
  Sales Intelligence ; 0.12 ; m ; n=Insights/Prospector/Data
  Configure Price Quote ; 0.06 ; E ; n=CPQ/Quotes
  Sales Enablement ; 0.07 ; m ; n=Enablement/Playbooks
  Revenue Intelligence ; 0.05 ; m E ; n=Revenue/Forecast
  Conversation Intelligence ; 0.05 ; m ; n=Calls/Conversations
  E-Signature ; 0.30 ; n=Sign/eSign
Marketing ; src=website/job_posting
  Marketing Automation ; n=Marketing Cloud/Automation
    Email Marketing ; 0.45 ; S ; n=Mail/Campaigns/Newsletter
    Lead Management ; 0.15 ; n=Leads/Lead Router
    Account-Based Marketing ; 0.05 ; m E ; n=ABM/Accounts
  Web Analytics ; 0.72 ; src=website ; n=Analytics/Insights
  Tag Management ; 0.35 ; src=website ; n=Tag Manager/Tags
  Product Analytics ; 0.10 ; m ; src=website/job_posting ; n=Product Analytics/Events
  Content Management ; n=CMS/Content
    Web Content Management ; 0.70 ; src=website/dns ; n=CMS/Sites/Web Builder
    Digital Asset Management ; 0.06 ; E ; n=DAM/Assets
  SEO Tools ; 0.18 ; n=SEO/Rank
  Social Media Management ; 0.28 ; n=Social/Publisher
  Advertising ; n=Ads
    Search Advertising ; 0.35 ; src=website ; n=Search Ads/Ads
    Display Advertising ; 0.22 ; src=website ; n=Display/Ad Server
    Retargeting ; 0.18 ; src=website ; n=Retargeting/Pixel
  Webinar Platforms ; 0.12 ; n=Webinar/Live
  Event Management ; 0.08 ; n=Events/Event Cloud
  Customer Data Platforms ; 0.05 ; m E ; src=website/job_posting ; n=CDP/Customer Data
  Marketing Attribution ; 0.04 ; m ; n=Attribution/Journey
  Consent Management ; 0.30 ; src=website ; n=Consent/Cookie Banner
Customer Service ; src=website/job_posting
  Help Desk ; 0.30 ; n=Help Desk/Service Desk/Support
  Live Chat ; 0.28 ; src=website ; n=Chat/Messenger
    Chatbots ; 0.08 ; m ; src=website ; n=Bot/AI Agent
  Customer Success ; 0.06 ; m ; x=software/internet/elearning ; n=Success/Health Score
  Knowledge Base ; 0.12 ; src=website ; n=Knowledge Base/Docs
  Contact Center ; 0.08 ; E ; n=Contact Center/Voice
  Survey & Feedback ; 0.25 ; n=Surveys/Feedback
Collaboration ; src=dns/job_posting/website
  Office Suites ; 0.88 ; src=dns/job_posting ; n=Workspace/Office
  Email Hosting ; 0.90 ; src=dns ; n=Mail/Email
  Video Conferencing ; 0.70 ; n=Meetings/Video
  Team Chat ; 0.55 ; m ; n=Chat/Team Chat
  Project Management ; n=Projects/Work Management
    Task Management ; 0.35 ; S ; n=Tasks/Boards
    Agile Project Management ; 0.15 ; m ; x=software/internet/it_services ; n=Agile/Sprints
    Portfolio Management ; 0.04 ; E ; n=Portfolio/PPM
  File Sharing ; 0.55 ; n=Drive/Files/Box
  Document Management ; 0.12 ; l ; n=Documents/DMS
  Whiteboarding ; 0.12 ; m ; n=Whiteboard/Canvas
  Intranet ; 0.10 ; E ; n=Intranet/Workplace
  Scheduling ; 0.25 ; S ; src=website ; n=Scheduler/Booking
IT Infrastructure ; src=dns/website/job_posting
  Cloud Hosting ; n=Cloud/Compute
    Infrastructure as a Service ; 0.45 ; src=dns/job_posting ; n=Cloud/Compute/Infrastructure
    Platform as a Service ; 0.12 ; m ; src=dns/job_posting ; n=App Platform/PaaS
    Web Hosting ; 0.40 ; S ; src=dns ; n=Hosting/Web Hosting
  Content Delivery Network ; 0.40 ; src=dns/website ; n=CDN/Edge
  DNS Hosting ; 0.50 ; src=dns ; n=DNS
  Databases ; n=Database/DB
    Relational Databases ; 0.30 ; src=job_posting ; n=Database/SQL
    NoSQL Databases ; 0.10 ; m ; src=job_posting ; n=Document DB/NoSQL
  Backup & Recovery ; 0.22 ; src=job_posting/partner_data ; n=Backup/Recovery
  Virtualization ; 0.15 ; l E ; src=job_posting/partner_data ; n=Virtualization/Hypervisor
  Networking ; n=Networking
    SD-WAN ; 0.05 ; E ; src=job_posting/partner_data ; n=SD-WAN
    Wireless Networking ; 0.12 ; src=job_posting/partner_data ; n=Wi-Fi/Wireless
  Storage ; 0.08 ; E ; src=job_posting/partner_data ; n=Storage/Arrays
  Email Delivery ; 0.30 ; src=dns ; n=Email API/SMTP
IT Management ; src=job_posting/partner_data
  IT Service Management ; 0.18 ; E ; n=Service Management/ITSM
  Endpoint Management ; 0.20 ; n=Endpoint Manager/MDM
  Remote Support ; 0.18 ; n=Remote/Remote Desktop
  IT Asset Management ; 0.08 ; E ; n=Asset Manager/Inventory
  Monitoring ; n=Monitor/Observability
    Application Performance Monitoring ; 0.12 ; m ; n=APM/Performance
    Log Management ; 0.10 ; m ; n=Logs/Log Analytics
    Infrastructure Monitoring ; 0.14 ; n=Monitor/Uptime
  Status Pages ; 0.06 ; m ; src=website/dns ; n=Status/Status Page
Security ; src=job_posting/partner_data/dns
  Endpoint Protection ; n=Endpoint/Protect
    Antivirus ; 0.40 ; l ; n=Antivirus/Security
    Endpoint Detection & Response ; 0.14 ; m E ; n=EDR/Sensor
  Identity & Access Management ; n=Identity/IAM
    Single Sign-On ; 0.22 ; src=dns/job_posting ; n=SSO/Identity
    Multi-Factor Authentication ; 0.18 ; n=MFA/Verify
    Privileged Access Management ; 0.04 ; E ; n=PAM/Vault
  Network Security ; n=Network Security
    Firewalls ; 0.25 ; l ; n=Firewall/NGFW
    VPN ; 0.20 ; n=VPN/Secure Access
  Email Security ; 0.22 ; src=dns ; n=Email Security/Mail Guard
  SIEM ; 0.06 ; E ; n=SIEM/Security Analytics
  Vulnerability Management ; 0.08 ; E ; n=Vulnerability Scanner/Exposure
  Cloud Security ; 0.06 ; m E ; n=Cloud Security/CNAPP
  Web Application Firewall ; 0.15 ; src=dns/website ; n=WAF/Shield
  Security Awareness Training ; 0.10 ; n=Awareness/Phish Training
  Password Managers ; 0.15 ; n=Passwords/Vault
Development ; src=job_posting/website
  Source Control ; 0.20 ; x=software/internet/it_services/ecommerce ; n=Git/Repos
  CI/CD ; 0.12 ; m ; x=software/internet/it_services ; n=CI/Pipelines/Deploy
  Issue Tracking ; 0.18 ; x=software/internet/it_services ; n=Issues/Tracker
  Feature Management ; 0.04 ; m ; x=software/internet ; n=Feature Flags/Flags
  Error Tracking ; 0.08 ; m ; x=software/internet/ecommerce ; src=website/job_posting ; n=Errors/Crash Reporting
  API Management ; 0.05 ; E ; n=API Gateway/API Manager
  Low-Code Platforms ; 0.06 ; n=Low-Code/App Builder
  Test Automation ; 0.05 ; m ; x=software/internet ; n=Testing/Test Cloud
  JavaScript Frameworks ; 0.60 ; src=website ; n=JS/Framework
  Web Frameworks ; 0.30 ; src=website/job_posting ; n=Framework
Data & Analytics ; src=job_posting/partner_data
  Business Intelligence ; n=BI/Analytics
    Dashboards & Reporting ; 0.28 ; n=BI/Dashboards/Reports
    Embedded Analytics ; 0.03 ; m ; n=Embedded/Charts
  Data Warehousing ; 0.10 ; m E ; n=Warehouse/Data Cloud
  Data Integration ; 0.10 ; E ; n=ETL/Pipelines/Connect
  Data Science Platforms ; 0.04 ; m E ; n=ML/Notebooks
  Data Catalog ; 0.03 ; E ; n=Catalog/Governance
  Spreadsheet Add-ons ; 0.10 ; S ; n=Sheets/Add-on
Finance ; src=job_posting/partner_data
  Accounting ; 0.55 ; S ; n=Accounting/Books/Ledger
  ERP ; 0.20 ; E ; n=ERP/Suite/Operations
  Expense Management ; 0.22 ; n=Expense/Spend
  Accounts Payable Automation ; 0.08 ; n=AP/Bills
  Billing & Invoicing ; n=Billing/Invoicing
    Invoicing ; 0.25 ; S ; n=Invoicing/Invoices
    Subscription Billing ; 0.06 ; x=software/internet/elearning/media ; n=Subscriptions/Recurring
  Tax Compliance ; 0.10 ; n=Tax/VAT
  Financial Planning & Analysis ; 0.06 ; E ; n=Planning/FP&A
  Treasury Management ; 0.03 ; E ; x=banking/financial_services ; n=Treasury/Cash
HR ; src=job_posting
  Core HR ; n=HR/People
    HRIS ; 0.30 ; n=HR/People/HRIS
    Benefits Administration ; 0.10 ; x=staffing ; n=Benefits
  Payroll ; 0.45 ; n=Payroll/Pay
  Talent Acquisition ; n=Recruiting/Talent
    Applicant Tracking ; 0.25 ; src=job_posting/website ; n=ATS/Recruit/Hiring
    Job Boards ; 0.20 ; src=job_posting ; n=Jobs/Careers
  Learning Management ; 0.14 ; n=Learn/LMS/Academy
  Performance Management ; 0.10 ; m ; n=Performance/Reviews
  Employee Engagement ; 0.08 ; m ; n=Engage/Pulse
  Time & Attendance ; 0.15 ; x=retail/restaurants/hospitality/logistics/hospitals ; n=Time/Clock
E-Commerce ; src=website/dns
  E-Commerce Platforms ; 0.12 ; x=retail/ecommerce/apparel/consumer_goods/food_beverage ; n=Commerce/Store/Shop
  Payment Processing ; 0.25 ; x=retail/ecommerce/hospitality/restaurants/travel/elearning ; src=website/partner_data ; n=Payments/Checkout/Pay
  Product Information Management ; 0.03 ; x=retail/ecommerce/wholesale/consumer_goods ; n=PIM/Catalog
  Reviews & Ratings ; 0.06 ; x=ecommerce/retail/hospitality/restaurants ; src=website ; n=Reviews/Ratings
  Shipping & Fulfillment ; 0.05 ; x=ecommerce/retail/wholesale ; n=Shipping/Fulfillment
  Loyalty Programs ; 0.03 ; x=retail/ecommerce/hospitality/restaurants ; n=Loyalty/Rewards
Operations ; src=job_posting/partner_data
  Supply Chain Management ; n=Supply Chain/SCM
    Inventory Management ; 0.10 ; x=retail/wholesale/consumer_goods/food_beverage/ecommerce/industrial_machinery ; n=Inventory/Stock
    Warehouse Management ; 0.04 ; x=logistics/wholesale/retail/ecommerce ; n=WMS/Warehouse
    Transportation Management ; 0.03 ; x=logistics/wholesale/retail/food_beverage ; n=TMS/Freight
  Procurement ; 0.06 ; E ; n=Procurement/Sourcing
  Field Service Management ; 0.05 ; x=utilities/telecom/construction/industrial_machinery/medical_devices ; n=Field Service/Dispatch
  Fleet Management ; 0.04 ; x=logistics/construction/utilities/food_beverage ; n=Fleet/Telematics
  Facility Management ; 0.05 ; E ; n=Facilities/Workplace
  Product Lifecycle Management ; 0.02 ; i=industrial_machinery/automotive/aerospace/hardware/semiconductors/medical_devices/consumer_goods/apparel ; n=PLM
Governance, Risk & Compliance ; src=job_posting/partner_data
  Contract Management ; 0.08 ; E ; x=legal ; n=Contracts/CLM
  GRC Platforms ; 0.04 ; E ; x=banking/insurance/financial_services ; n=GRC/Risk
  Privacy Management ; 0.06 ; m ; n=Privacy/Data Rights
  Compliance Automation ; 0.04 ; m ; x=software/internet ; n=Compliance/Trust
  Whistleblowing ; 0.03 ; E ; n=Whistleblower/Speak Up
Industry Solutions ; src=job_posting/partner_data/website
  Healthcare Software ; n=Health
    Electronic Health Records ; 0.60 ; i=hospitals ; n=EHR/Health Record
    Practice Management ; 0.35 ; i=hospitals/medical_devices ; n=Practice/Clinic
    Clinical Trial Management ; 0.30 ; i=pharma/biotech/medical_devices ; n=CTMS/Trials
  Real Estate Software ; n=Property
    Property Management ; 0.55 ; i=real_estate ; n=Property Manager/Rentals
    Construction Management ; 0.45 ; i=construction/architecture/real_estate ; n=Build/Site
    Building Information Modeling ; 0.35 ; i=architecture/construction ; n=BIM/Design
  Hospitality Software ; n=Hospitality
    Hotel Property Management ; 0.65 ; i=hospitality/travel ; n=PMS/Front Desk
    Restaurant POS ; 0.65 ; i=restaurants/hospitality/food_beverage ; src=website/partner_data ; n=POS/Register
    Online Reservations ; 0.45 ; i=restaurants/hospitality/travel ; src=website ; n=Reservations/Booking
  Retail POS ; 0.45 ; i=retail/apparel/consumer_goods ; src=website/partner_data ; n=POS/Point of Sale
  Legal Practice Management ; 0.55 ; i=legal ; n=Legal/Matters
  Accounting Practice Management ; 0.50 ; i=accounting ; n=Practice/Tax Suite
  Education Software ; n=Education
    Student Information Systems ; 0.60 ; i=higher_education ; n=SIS/Student
    Learning Platforms ; 0.60 ; i=higher_education/elearning ; src=website/job_posting ; n=Classroom/Courses
  Financial Services Software ; n=Finance Suite
    Core Banking ; 0.60 ; i=banking ; n=Core/Banking Suite
    Insurance Policy Administration ; 0.55 ; i=insurance ; n=Policy/Claims
    Portfolio Management Software ; 0.45 ; i=investment/financial_services ; n=Portfolio/Wealth
  Manufacturing Execution Systems ; 0.30 ; i=industrial_machinery/automotive/aerospace/chemicals/semiconductors/consumer_goods/food_beverage ; n=MES/Shop Floor
  Donor Management ; 0.55 ; i=nonprofit ; src=website/job_posting ; n=Donor/Fundraising
  Government Software ; 0.50 ; i=government ; n=Permits/Citizen Services
  Recruiting Agency Software ; 0.55 ; i=staffing ; n=Staffing Suite/Placements
  Agency Management ; 0.40 ; i=marketing_agency/consulting/architecture ; n=Agency/Resource Planner
  Media Publishing Platforms ; 0.45 ; i=media/entertainment ; src=website ; n=Publisher/Paywall
  Energy Trading & Risk ; 0.35 ; i=energy/utilities/renewables/mining ; n=ETRM/Trading
  Farm Management ; 0.45 ; i=agriculture ; n=Farm/Field
  Telecom BSS/OSS ; 0.50 ; i=telecom ; n=BSS/OSS
  Travel Booking Engines ; 0.45 ; i=travel/hospitality ; src=website ; n=Booking Engine/Travel
`;
